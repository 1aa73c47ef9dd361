import { createReadStream } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';

const require = createRequire(import.meta.url);
const swaggerDir = path.dirname(require.resolve('swagger-ui-dist/package.json'));

const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
};

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8" />
<meta name="viewport" content="width=device-width, initial-scale=1" />
<title>Plenum API</title>
<link rel="stylesheet" href="/api/docs/swagger-ui.css" />
</head>
<body>
<div id="ui"></div>
<script src="/api/docs/swagger-ui-bundle.js"></script>
<script src="/api/docs/init.js"></script>
</body>
</html>`;

const INIT = `window.ui = SwaggerUIBundle({ url: '/api/docs-json', dom_id: '#ui', deepLinking: true, persistAuthorization: true });`;

/** The interactive API page (Swagger UI served from this server: works offline, strict CSP). */
export function serveDocs(pathname: string, res: ServerResponse): boolean {
  const csp = "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'";
  if (pathname === '/api/docs' || pathname === '/api/docs/') {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': csp });
    res.end(PAGE);
    return true;
  }
  if (pathname === '/api/docs/init.js') {
    res.writeHead(200, { 'Content-Type': 'text/javascript; charset=utf-8' });
    res.end(INIT);
    return true;
  }
  const name = pathname.slice('/api/docs/'.length);
  const type = ASSETS[name];
  if (pathname.startsWith('/api/docs/') && type) {
    res.writeHead(200, { 'Content-Type': type, 'Cache-Control': 'public, max-age=86400' });
    // a missing or unreadable asset ends this response, never the process
    pipeline(createReadStream(path.join(swaggerDir, name)), res).catch(() => res.destroy());
    return true;
  }
  return false;
}
