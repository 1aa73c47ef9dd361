import { avatarSchema, userIdParam } from '@plenum/validators';
import { z } from 'zod';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { errorResponse as error } from '../../http/openapi-errors';

export const userIdParams = z.object({ id: userIdParam.meta({ description: 'user id' }) });

/** The avatar routes are plain Node routes (streamed multipart, raw bytes), so their entries are written here. */
export const usersOpenApiPaths: ZodOpenApiPathsObject = {
  '/users/{id}/avatar': {
    put: {
      tags: ['users'],
      summary:
        'Upload or replace one’s avatar (multipart field "avatar"; jpg, png or gif by content; ≤ MAX_AVATAR_SIZE)',
      requestBody: {
        required: true,
        content: {
          'multipart/form-data': {
            schema: z.object({ avatar: z.string().meta({ format: 'binary', description: 'the picture' }) }),
          },
        },
      },
      responses: {
        '200': { description: 'Stored', content: { 'application/json': { schema: avatarSchema } } },
        '400': error('Not an allowed image type, too large, missing, malformed, or not stored'),
        '401': error('Not signed in'),
        '403': error('Not the owner'),
        '404': error('No such user'),
      },
    },
    get: {
      tags: ['users'],
      summary: 'The avatar picture, with its real type (public when the profile is public)',
      responses: {
        '200': {
          description: 'The picture',
          content: {
            'image/png': { schema: z.string().meta({ format: 'binary' }) },
            'image/jpeg': { schema: z.string().meta({ format: 'binary' }) },
            'image/gif': { schema: z.string().meta({ format: 'binary' }) },
          },
        },
        '304': { description: 'Not modified (If-None-Match)' },
        '400': error('The id is not a user id'),
        '403': error('The profile is private'),
        '404': error('No such user, or no avatar'),
      },
    },
  },
};
