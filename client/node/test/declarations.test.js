// index.d.ts declares no name that a global already has (the generated
// TypeScript of toolgate.v1 would: its Error interface shadows the global
// Error). Uses the TypeScript compiler, a development dependency.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import ts from 'typescript';

test('index.d.ts shadows no global', (t) => {
  const declarations = fileURLToPath(new URL('../index.d.ts', import.meta.url));
  // An empty module: what is in scope at its end is exactly the globals.
  const dir = mkdtempSync(join(tmpdir(), 'toolgate-dts-'));
  t.after(() => rmSync(dir, { recursive: true }));
  const empty = join(dir, 'empty.ts');
  writeFileSync(empty, 'export {};\n');
  const program = ts.createProgram([declarations, empty], {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    lib: ['lib.es2022.d.ts'],
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    types: ['node'],
    typeRoots: [fileURLToPath(new URL('../node_modules/@types', import.meta.url))],
  });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(declarations);
  const problems = [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)];
  assert.deepEqual(problems.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n')), []);

  const globals = new Set(
    checker.getSymbolsInScope(program.getSourceFile(empty).endOfFileToken, ts.SymbolFlags.Type | ts.SymbolFlags.Value).map((symbol) => symbol.name),
  );
  assert.ok(globals.has('Error') && globals.has('Buffer'), 'the scope has the globals of the ES library and @types/node');

  const exported = checker.getExportsOfModule(checker.getSymbolAtLocation(source)).map((symbol) => symbol.name);
  assert.ok(exported.includes('Finding') && exported.includes('Client'));
  assert.deepEqual(exported.filter((name) => globals.has(name)), []);
});
