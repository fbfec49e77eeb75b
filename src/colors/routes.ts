// GET /color/random and GET /color/info. The catalogue and its nearest-name index are
// built once, when the plugin registers (about half a second: docs/colors.md).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ok } from '../http/envelope.js'
import { createColorService, type ColorService } from './service.js'
import { ColorAnswerSchema, ColorInfoQuerySchema, ColorRandomQuerySchema } from './schemas.js'

export const colorRoutes: FastifyPluginAsyncTypebox<{ service?: ColorService }> = async (app, options) => {
  const service = options.service ?? createColorService()
  app.log.debug({ ms: Math.round(service.catalog.buildMs), colors: service.catalog.size }, 'colour index built')

  app.get('/color/random', {
    config: { errors: ['COLOR_SEED_INVALID'] },
    schema: {
      tags: ['colors'],
      summary: 'A random colour, uniform over the sRGB cube, with its name and everything about it',
      querystring: ColorRandomQuerySchema,
      response: { 200: ColorAnswerSchema }
    }
  }, async (request) => ok(service.random(request.query.seed)))

  app.get('/color/info', {
    config: {
      errors: ['COLOR_QUERY_MISSING', 'COLOR_QUERY_AMBIGUOUS', 'COLOR_HEX_EMPTY', 'COLOR_HEX_INVALID', 'COLOR_RGB_INVALID', 'COLOR_NAME_INVALID', 'COLOR_NAME_NOT_FOUND']
    },
    schema: {
      tags: ['colors'],
      summary: 'Everything about a colour given by exactly one of name, hex or rgb',
      querystring: ColorInfoQuerySchema,
      response: { 200: ColorAnswerSchema }
    }
  }, async (request) => ok(service.info(request.query)))
}
