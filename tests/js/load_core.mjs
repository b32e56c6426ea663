// Loads the built WASM module in Node exactly as the page does (the same ES6 factory), passing the
// .wasm bytes as `wasmBinary`: Emscripten 3.1.6's web-only build cannot fetch a file path in Node.
import { copyFile, readFile, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** `name`: the module's file name without its extension (the benchmark's module is llmsizer-bench). */
export async function loadCore(webDir, name = 'llmsizer') {
  // The factory file is ES module syntax with a .js name; give Node a .mjs copy to import.
  const dir = await mkdtemp(join(tmpdir(), 'llmsizer-core-'));
  const copy = join(dir, `${name}.mjs`);
  await copyFile(join(webDir, `${name}.js`), copy);
  const { default: createCore } = await import(pathToFileURL(copy).href);
  const wasmBinary = await readFile(join(webDir, `${name}.wasm`));
  return createCore({ wasmBinary });
}
