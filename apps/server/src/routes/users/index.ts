import { mkdir } from 'node:fs/promises';
import { avatarDir } from '@plenum/core';
import type { ServerPlugin } from '../../http/routes';
import type { PluginContext } from '../../plugins';
import { downloadAvatar } from './avatar-download';
import { uploadAvatar } from './avatar-upload';
import { usersOpenApiPaths } from './openapi';

/** The users domain's plain routes: avatar upload (streamed multipart) and download (raw bytes). */
export async function usersPlugin({ svc }: PluginContext): Promise<ServerPlugin> {
  await mkdir(avatarDir(svc), { recursive: true });
  return {
    name: 'users',
    routes: [
      { method: 'PUT', path: '/users/{id}/avatar', handler: uploadAvatar },
      { method: 'GET', path: '/users/{id}/avatar', handler: downloadAvatar },
    ],
    openapiPaths: usersOpenApiPaths,
  };
}
