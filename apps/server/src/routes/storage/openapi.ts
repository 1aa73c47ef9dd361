import { LINK_PATH } from '@plenum/core';
import {
  carImportResultSchema,
  folderListingSchema,
  folderUploadResultSchema,
  PSA_MATCH,
  PSA_STATUS,
  pinSchema,
  psaFailure,
  psaPin,
  psaPinResults,
  psaPinStatus,
  uploadForm,
  uploadResultSchema,
  visibilityFields,
  visibilityInput,
} from '@plenum/validators';
import { z } from 'zod';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { errorResponse as error } from '../../http/openapi-errors';

const psaError = (description: string) => ({
  description,
  content: { 'application/json': { schema: psaFailure } },
});
export const cidParams = z.object({ cid: z.string().meta({ description: 'CID (v0 or v1)' }) });
export const cidPathParams = cidParams.extend({
  path: z.string().meta({ description: 'a file inside the folder, slashes included (a/b/c.txt)' }),
});
export const lsQuery = z.object({
  path: z.string().max(1024).optional().meta({ description: 'a folder inside cid (default: cid itself)' }),
});
export const tokenParams = z.object({ token: z.string().meta({ description: 'the link token' }) });
export const visibilityQuery = z.object(visibilityFields);
export const requestidParams = z.object({ requestid: z.string().meta({ description: 'pin request id' }) });
/** the Pinning Service API's list filters */
const pinsQuery = z.object({
  cid: z.string().optional().meta({ description: 'comma-separated CIDs (≤ 10)' }),
  name: z.string().max(255).optional(),
  match: z.enum(PSA_MATCH).optional(),
  status: z
    .string()
    .optional()
    .meta({ description: `comma-separated: ${PSA_STATUS.join(', ')} (default pinned)` }),
  before: z.string().optional().meta({ format: 'date-time' }),
  after: z.string().optional().meta({ format: 'date-time' }),
  limit: z.number().int().min(1).max(1000).optional(),
  meta: z.string().optional().meta({ description: 'JSON object of meta values to match' }),
});
const binary = z.string().meta({ format: 'binary' });
const psaTags = ['pinning service'];

/** Plain routes of the storage domain (multipart, raw bytes, the Pinning Service API). */
export const storageOpenApiPaths: ZodOpenApiPathsObject = {
  '/ipfs/upload': {
    post: {
      tags: ['storage'],
      summary:
        'Upload a file (multipart field "file", streamed; type from its bytes), or several as one folder (wrapWithDirectory=true), pinned for your wallet',
      requestParams: {
        query: z.object({
          wrapWithDirectory: z
            .enum(['true', 'false'])
            .optional()
            .meta({ description: 'true: the files become one folder (or the form field of that name)' }),
        }),
      },
      requestBody: { required: true, content: { 'multipart/form-data': { schema: uploadForm } } },
      responses: {
        '201': {
          description: 'Stored and pinned: one file, or with wrapWithDirectory the folder and its files',
          content: {
            'application/json': { schema: z.union([uploadResultSchema, folderUploadResultSchema]) },
          },
        },
        '400': error(
          'Not multipart, no file, an empty file, several files without wrapWithDirectory, more than 1,000 files, a bad or repeated path, or a bad visibility or daoId',
        ),
        '401': error('Not signed in'),
        '403': error(
          'Email not verified, no linked wallet (WALLET_REQUIRED), or not in the DAO (NOT_A_MEMBER)',
        ),
        '413': error(
          'Larger than MAX_FILE_SIZE (the files together), or beyond your storage quota (QUOTA_EXCEEDED)',
        ),
        '415': error('Type not in ALLOWED_FILE_TYPES'),
        '502': error('The IPFS node failed'),
      },
    },
  },
  '/ipfs/file/{cid}': {
    get: {
      tags: ['storage'],
      summary: 'Raw bytes of a CID (gateways first, then the node) with the detected Content-Type',
      responses: {
        '200': {
          description: 'The bytes; Content-Disposition names them {cid}.{ext}',
          content: {
            'application/octet-stream': { schema: binary },
            'image/*': { schema: binary },
            'text/plain': { schema: binary },
          },
        },
        '304': { description: 'Not modified (If-None-Match with the CID ETag)' },
        '400': error('Invalid CID'),
        '404': error('Not found on any provider, or a file you may not read (the same answer)'),
        '502': error('Every provider failed'),
        '504': error('Every attempt timed out'),
      },
    },
  },
  '/ipfs/file/{cid}/{path}': {
    get: {
      tags: ['storage'],
      summary: 'Raw bytes of a file inside a folder, with the same headers as /ipfs/file/{cid}',
      responses: {
        '200': {
          description: 'The bytes; Content-Disposition names them {file cid}.{ext}',
          content: {
            'application/octet-stream': { schema: binary },
            'image/*': { schema: binary },
            'text/plain': { schema: binary },
          },
        },
        '304': { description: 'Not modified (If-None-Match with the ETag)' },
        '400': error('Invalid CID or path, the path names a folder (NOT_A_FILE), or passes through a file'),
        '404': error(
          'No such path in the folder (PATH_NOT_FOUND), or the folder was not found or is one you may not read (the same answer)',
        ),
        '502': error('Every provider failed'),
        '504': error('Every attempt timed out'),
      },
    },
  },
  '/ipfs/ls/{cid}': {
    get: {
      tags: ['storage'],
      summary: 'The entries of a folder (UnixFS directory), from the node',
      responses: {
        '200': {
          description: 'The folder',
          content: { 'application/json': { schema: folderListingSchema } },
        },
        '400': error('Invalid CID or path, or not a folder (NOT_A_DIRECTORY)'),
        '404': error('Not found, or a folder you may not read (the same answer)'),
        '502': error('The node failed'),
        '504': error('The node timed out'),
      },
    },
  },
  '/ipfs/car': {
    post: {
      tags: ['storage'],
      summary:
        'Import a CAR (streamed): every block checked against its CID, every root pinned for your wallet',
      description:
        'visibility (public, private, dao) and daoId in the query, the body being the CAR ' +
        '(docs/storage.md, "CAR import"); the roots count their DAG bytes against your quota.',
      requestBody: {
        required: true,
        content: { 'application/vnd.ipld.car': { schema: binary } },
      },
      responses: {
        '201': {
          description: 'Stored; every root pinned',
          content: { 'application/json': { schema: carImportResultSchema } },
        },
        '400': error(
          'Empty, not a CAR (INVALID_CAR), a block that does not match its CID (INVALID_CAR_BLOCK), an unsupported codec or hash (UNSUPPORTED_CAR_BLOCK), a root whose DAG is not whole (INCOMPLETE_CAR), or a bad visibility or daoId',
        ),
        '401': error('Not signed in'),
        '403': error(
          'Email not verified, no linked wallet (WALLET_REQUIRED), or not in the DAO (NOT_A_MEMBER)',
        ),
        '413': error('Larger than MAX_FILE_SIZE, or beyond your storage quota (QUOTA_EXCEEDED)'),
        '415': error('Not application/vnd.ipld.car (CAR_REQUIRED)'),
        '502': error('The IPFS node failed'),
      },
    },
  },
  '/ipfs/pin/{cid}': {
    post: {
      tags: ['storage'],
      summary: 'Pin a CID for your wallet: recorded at once, fetched and pinned in the background',
      description:
        'visibility (public, private, dao) and daoId in the query or a JSON body; asked again with one, ' +
        'the pin takes it (docs/storage.md, "Private and members-only files").',
      requestBody: { required: false, content: { 'application/json': { schema: visibilityInput } } },
      responses: {
        '201': {
          description: 'Your pin was created',
          content: { 'application/json': { schema: pinSchema } },
        },
        '200': { description: 'You already pin it', content: { 'application/json': { schema: pinSchema } } },
        '400': error('Invalid CID, or a bad visibility or daoId'),
        '401': error('Not signed in'),
        '403': error(
          'Email not verified, no linked wallet (WALLET_REQUIRED), or not in the DAO (NOT_A_MEMBER)',
        ),
        '404': error('No CID in the path: an empty segment, or one longer than 4096 characters, is no route'),
      },
    },
  },
  [`${LINK_PATH}{token}`]: {
    get: {
      tags: ['storage'],
      summary: 'The file of a signed link, without credentials, until the link expires or is revoked',
      responses: {
        '200': {
          description: 'The bytes, with the headers of /ipfs/file/{cid}',
          content: { 'application/octet-stream': { schema: binary } },
        },
        '403': error('The link expired (LINK_EXPIRED) or was revoked (LINK_REVOKED)'),
        '404': error('No such link, or its maker may no longer read the file'),
        '502': error('Every provider failed'),
        '504': error('Every attempt timed out'),
      },
    },
  },
  '/pins': {
    get: {
      tags: psaTags,
      summary: 'Pinning Service API: list your pin requests (newest first)',
      // checked by the Pinning Service API's own parser, in its own error body (pins-api.ts)
      requestParams: { query: pinsQuery },
      responses: {
        '200': { description: 'Matching pins', content: { 'application/json': { schema: psaPinResults } } },
        '400': psaError('Bad query'),
        '401': psaError('Missing or invalid access token'),
      },
    },
    post: {
      tags: psaTags,
      summary: 'Pinning Service API: add a pin (queued, fetched in the background)',
      requestBody: { required: true, content: { 'application/json': { schema: psaPin } } },
      responses: {
        '202': { description: 'Accepted', content: { 'application/json': { schema: psaPinStatus } } },
        '400': psaError('Bad pin object'),
        '401': psaError('Missing or invalid access token'),
        '403': psaError('Email not verified or no linked wallet'),
      },
    },
  },
  '/pins/{requestid}': {
    get: {
      tags: psaTags,
      summary: 'Pinning Service API: one pin request',
      responses: {
        '200': { description: 'The pin request', content: { 'application/json': { schema: psaPinStatus } } },
        '400': psaError('A control character in the query string (VALIDATION_FAILED)'),
        '401': psaError('Missing or invalid access token'),
        '404': psaError('No such pin request'),
      },
    },
    post: {
      tags: psaTags,
      summary: 'Pinning Service API: replace a pin request (new requestid; the old one is gone)',
      requestBody: { required: true, content: { 'application/json': { schema: psaPin } } },
      responses: {
        '202': { description: 'Accepted', content: { 'application/json': { schema: psaPinStatus } } },
        '400': psaError('Bad pin object'),
        '401': psaError('Missing or invalid access token'),
        '404': psaError('No such pin request'),
      },
    },
    delete: {
      tags: psaTags,
      summary: 'Pinning Service API: remove a pin request',
      responses: {
        '202': { description: 'Removed' },
        '400': psaError('A body, or a control character in the query string (VALIDATION_FAILED)'),
        '401': psaError('Missing or invalid access token'),
        '404': psaError('No such pin request'),
      },
    },
  },
};
