import type { RouteSet } from '../../http/routes';
import { downloadAvatar } from './avatar-download';
import { uploadAvatar } from './avatar-upload';
import { userIdParams, usersOpenApiPaths } from './openapi';

/** The users domain's plain routes: avatar upload (streamed multipart) and download (raw bytes). */
export const usersRoutes: RouteSet = {
  routes: [
    {
      method: 'PUT',
      path: '/users/{id}/avatar',
      operationId: 'users-avatar-upload',
      access: 'member',
      scope: 'account',
      params: userIdParams,
      handler: uploadAvatar,
    },
    {
      method: 'GET',
      path: '/users/{id}/avatar',
      operationId: 'users-avatar-download',
      access: 'public',
      optionalAuth: true,
      params: userIdParams,
      handler: downloadAvatar,
    },
  ],
  openapiPaths: usersOpenApiPaths,
};
