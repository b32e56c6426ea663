// A static file server on 127.0.0.1 for the browser tests (and `serve` in the README).
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve } from 'node:path';

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8', '.wasm': 'application/wasm', '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml', '.png': 'image/png', '.txt': 'text/plain; charset=utf-8', '.ico': 'image/x-icon',
};

/** Serves `root` on 127.0.0.1:`port` (0 = any free port). Resolves to {server, url}. `connectSrc`:
 *  origins added to the pages' Content-Security-Policy connect-src (the tests' local Hugging Face
 *  stand-in, tests/js/hub_server.mjs, in place of huggingface.co; nothing else is changed). */
export async function serve(root, port = 0, { connectSrc = [] } = {}) {
  const base = resolve(root);
  const server = createServer(async (req, res) => {
    try {
      const path = decodeURIComponent(new URL(req.url, 'http://127.0.0.1').pathname);
      let file = normalize(join(base, path));
      if (!file.startsWith(base)) { res.writeHead(403).end(); return; }
      if ((await stat(file)).isDirectory()) file = join(file, 'index.html');
      let body = await readFile(file);
      if (connectSrc.length && extname(file) === '.html') {
        body = Buffer.from(body.toString('utf8').replace("connect-src 'self'", `connect-src 'self' ${connectSrc.join(' ')}`));
      }
      res.writeHead(200, { 'Content-Type': TYPES[extname(file)] || 'application/octet-stream', 'Cache-Control': 'no-cache' });
      res.end(body);
    } catch {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
    }
  });
  await new Promise((ok) => server.listen(port, '127.0.0.1', ok));
  return { server, url: `http://127.0.0.1:${server.address().port}/` };
}

// `node tests/js/static_server.mjs DIR [PORT]` serves DIR until interrupted.
if (import.meta.url === `file://${process.argv[1]}`) {
  const [dir = 'build/wasm/web', port = '8000'] = process.argv.slice(2);
  const { url } = await serve(dir, Number(port));
  console.log(`Serving ${dir} at ${url}  (Ctrl-C to stop)`);
}
