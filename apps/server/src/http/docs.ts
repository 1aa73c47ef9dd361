import { createReadStream } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { AppError } from '@plenum/core';
import type { FastifyInstance } from 'fastify';

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
export function registerDocs(app: FastifyInstance, openapi: () => unknown) {
  const system = { config: { system: true } };
  const csp = "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'";
  app.get('/api/docs-json', system, async () => openapi());
  app.get('/api/docs', system, async (_request, reply) =>
    reply.type('text/html; charset=utf-8').header('Content-Security-Policy', csp).send(PAGE),
  );
  app.get('/api/docs/init.js', system, async (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').send(INIT),
  );
  app.get<{ Params: { asset: string } }>('/api/docs/:asset', system, async (request, reply) => {
    const type = ASSETS[request.params.asset];
    if (!type) throw new AppError('NOT_FOUND', `No route for GET ${request.url}`);
    // a missing or unreadable asset ends this response, never the process (Fastify handles the stream's errors)
    return reply
      .type(type)
      .header('Cache-Control', 'public, max-age=86400')
      .send(createReadStream(path.join(swaggerDir, request.params.asset)));
  });
}
