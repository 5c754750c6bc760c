// The README's "From Node" examples run, against replica A, and print what
// the README says they print.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';

import { REPO, replicaAddress } from './support.js';

// The address the README's examples use.
const README_ADDRESS = '127.0.0.1:50051';

/** Every `language` code block of the README's `section`, each with the `text` block after it. */
function examples(section, language) {
  const readme = readFileSync(`${REPO}README.md`, 'utf8');
  const body = readme.split(`\n## ${section}\n`)[1].split('\n## ')[0];
  const found = [...body.matchAll(new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\`[\\s\\S]*?\`\`\`text\\n([\\s\\S]*?)\`\`\``, 'g'))];
  assert.ok(found.length > 0, `README section ${section} has no ${language} block followed by a text block`);
  return found.map(([, code, output]) => ({ code, output }));
}

test('the From Node examples', async (t) => {
  for (const [i, { code, output }] of examples('From Node', 'js').entries()) {
    await t.test(`example ${i + 1}`, () => {
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
  }
});
