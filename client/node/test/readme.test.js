// The README's "From Node" example runs, against replica A, and prints
// what the README says it prints.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';

import { REPO, replicaAddress } from './support.js';

// The address the README's examples use.
const README_ADDRESS = '127.0.0.1:50051';

/** The first `language` code block of the README's `section` and the `text` block after it. */
function example(section, language) {
  const readme = readFileSync(`${REPO}README.md`, 'utf8');
  const body = readme.split(`\n## ${section}\n`)[1].split('\n## ')[0];
  const found = new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\`[\\s\\S]*?\`\`\`text\\n([\\s\\S]*?)\`\`\``).exec(body);
  assert.ok(found, `README section ${section} has no ${language} block followed by a text block`);
  return { code: found[1], output: found[2] };
}

test('the From Node example', () => {
  const { code, output } = example('From Node', 'js');
  assert.ok(code.includes(README_ADDRESS));
  // Run inside the package folder, so that `import 'toolgate'` resolves to it.
  const run = spawnSync(process.execPath, ['--input-type=module'], {
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    input: code.replaceAll(README_ADDRESS, replicaAddress('A')),
    encoding: 'utf8',
    timeout: 60_000,
  });
  assert.equal(run.status, 0, run.stderr);
  assert.equal(run.stdout, output);
});
