import { dirname } from 'node:path';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';

/** Swagger UI's page: its one script reads the document from `/openapi.json` (the UI is `window.ui`, as in Swagger UI's own page). */
const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Paykit payments API</title>
<link rel="stylesheet" href="/docs/swagger-ui.css">
<link rel="icon" type="image/png" href="/docs/favicon-32x32.png">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/docs/swagger-ui-bundle.js"></script>
<script>window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#swagger-ui', deepLinking: true, filter: true });</script>
</body>
</html>
`;

/** The files of swagger-ui-dist the page loads; the package's demo page and the rest stay unserved. */
const UI_ASSETS = new Set(['/swagger-ui.css', '/swagger-ui-bundle.js', '/favicon-32x32.png']);

/**
 * The OpenAPI document at `/openapi.json` (and `/docs-yaml`) as @nestjs/swagger serializes it, and
 * Swagger UI at `/docs` loading it by URL. @nestjs/swagger's own UI page inlines the document into
 * its init script through a string `String.prototype.replace`, which rewrites `` $` ``, `$'` and `$&`
 * in any description into other text (a syntax error, a blank page); by URL no text of the
 * document is ever part of a script.
 */
export function serveApiDocs(app: NestFastifyApplication, document: OpenAPIObject): void {
  SwaggerModule.setup('docs', app, document, { ui: false, jsonDocumentUrl: 'openapi.json', useGlobalPrefix: false });
  app.useStaticAssets({
    root: dirname(require.resolve('swagger-ui-dist/package.json')),
    prefix: '/docs/',
    decorateReply: false,
    index: false,
    allowedPath: (pathName) => UI_ASSETS.has(pathName),
  });
  const fastify = app.getHttpAdapter().getInstance();
  for (const path of ['/docs', '/docs/', '/docs/index.html']) {
    fastify.get(path, async (_request, reply: FastifyReply) => reply.type('text/html; charset=utf-8').send(DOCS_PAGE));
  }
}
