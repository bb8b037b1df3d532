// The shape of ui/ (issue 25 §4): no file over 500 lines, and no import cycle between its modules
// (a wiring module reaches another through the `app` object main.js builds, never by importing it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const UI = join(import.meta.dirname, '..', 'ui');
const files = readdirSync(UI).filter((f) => /\.(js|css|html)$/.test(f));

test('no file under ui/ is over 500 lines', () => {
  for (const f of files) {
    const lines = readFileSync(join(UI, f), 'utf8').split('\n').length - 1;
    assert.ok(lines <= 500, `ui/${f}: ${lines} lines`);
  }
});

test('no ui/ module imports, directly or not, one that imports it', () => {
  const imports = new Map();
  for (const f of files.filter((name) => name.endsWith('.js'))) {
    const text = readFileSync(join(UI, f), 'utf8');
    imports.set(f, [...text.matchAll(/^import\b[^'"]*['"]\.\/([^'"]+)['"]/gm)].map((m) => m[1]));
  }
  assert.ok(imports.get('main.js').length > 5, 'the import scan sees main.js importing the modules');
  const cycle = (start) => {
    const seen = new Set();
    const walk = (f, path) => {
      for (const next of imports.get(f) ?? []) {
        if (next === start) return [...path, next];
        if (seen.has(next)) continue;
        seen.add(next);
        const found = walk(next, [...path, next]);
        if (found) return found;
      }
      return null;
    };
    return walk(start, [start]);
  };
  for (const f of imports.keys()) assert.equal(cycle(f), null, `import cycle: ${cycle(f)?.join(' → ')}`);
});
