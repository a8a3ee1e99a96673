import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

/** The OpenAPI 3.1 document is generated from the routes' zod schemas: `/api/openapi.json`, browsable at `/api/docs`. */
export const openapiPlugin = fp(
  async (app: FastifyInstance) => {
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'Redline Parts API',
          version: '1.0.0',
          description:
            'The JSON API of the Redline Parts shop. Errors always answer `{"error": {"code", "message", "details?"}}`.',
        },
        components: {
          securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } },
        },
      },
      transform: jsonSchemaTransform,
    });
    await app.register(swaggerUi, {
      routePrefix: '/api/docs',
      staticCSP: true,
      // Swagger UI sets inline styles as it renders; only this page allows them. Scripts stay hash-pinned,
      // and nothing here may frame, upgrade or fetch from other origins.
      transformStaticCSP: (header) =>
        header
          .replace("style-src 'self' https:", "style-src 'self' 'unsafe-inline'")
          .replace("frame-ancestors 'self'", "frame-ancestors 'none'")
          .replace("font-src 'self' https: data:", "font-src 'self' data:")
          .replace(' validator.swagger.io', '')
          .replace(/\s*upgrade-insecure-requests;/, ''),
    });
    app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  },
  { name: 'openapi' },
);
