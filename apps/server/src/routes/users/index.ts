import type { RouteSet } from '../../http/routes';
import { downloadAvatar } from './avatar-download';
import { uploadAvatar } from './avatar-upload';
import { usersOpenApiPaths } from './openapi';

/** The users domain's plain routes: avatar upload (streamed multipart) and download (raw bytes). */
export const usersRoutes: RouteSet = {
  routes: [
    { method: 'PUT', path: '/users/{id}/avatar', access: 'member', handler: uploadAvatar },
    { method: 'GET', path: '/users/{id}/avatar', access: 'public', handler: downloadAvatar },
  ],
  openapiPaths: usersOpenApiPaths,
};
