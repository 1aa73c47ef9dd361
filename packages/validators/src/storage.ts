import { z } from 'zod';
import { address, isoDateTime, pageQuery } from './common';
import { refined } from './issue-codes';

export const cidString = z.string().trim().min(1).max(200).meta({
  description: 'CID, v0 or v1 (returned as CIDv1 base32)',
  example: 'bafkreibm6jg3ux5qumhcn2b3flc3tyu6dmlb4xa7u5bf44yegnrjhc4yeq',
});

export const cidInput = z.strictObject({ cid: cidString });

export const PIN_STATUS = ['pinning', 'pinned', 'failed'] as const;

// --- visibility and signed links (docs/storage.md, "Private and members-only files") ---

export const PIN_VISIBILITY = ['public', 'private', 'dao'] as const;
export const pinVisibility = z.enum(PIN_VISIBILITY).meta({
  description: 'public (anyone), private (the owner only) or dao (the members of `daoId`)',
});

/** `visibility` and `daoId` of an upload or pin: `daoId` with `dao` and only then */
export const visibilityFields = {
  visibility: pinVisibility.optional(),
  daoId: z.uuid().optional().meta({ description: 'with visibility dao: the DAO whose members read it' }),
};

export function checkVisibility(
  v: { visibility?: string | undefined; daoId?: string | undefined },
  ctx: z.RefinementCtx,
) {
  if (v.visibility === 'dao' && !v.daoId)
    ctx.addIssue({
      code: 'custom',
      path: ['daoId'],
      params: { code: 'dao_id_required' },
      message: 'required with visibility dao',
    });
  if (v.daoId && v.visibility !== 'dao')
    ctx.addIssue({
      code: 'custom',
      path: ['daoId'],
      params: { code: 'dao_id_only_with_dao' },
      message: 'only with visibility dao',
    });
}

/** the visibility of an upload (multipart fields) or of a pin (JSON body or query) */
export const visibilityInput = z.strictObject(visibilityFields).superRefine(checkVisibility);

export const pinInput = z.strictObject({ cid: cidString, ...visibilityFields }).superRefine(checkVisibility);

export const setVisibilityInput = z
  .strictObject({ cid: cidString, visibility: pinVisibility, daoId: visibilityFields.daoId })
  .superRefine(checkVisibility);

/** a signed link's lifetime: one second to seven days */
export const LINK_MAX_SECONDS = 604_800;

export const createLinkInput = z.strictObject({
  cid: cidString,
  expiresIn: z
    .number()
    .int()
    .min(1)
    .max(LINK_MAX_SECONDS)
    .meta({ description: 'seconds until the link stops working (1 to 604800, seven days)' }),
});

export const createdLinkSchema = z
  .object({
    id: z.uuid(),
    cid: z.string(),
    url: z.string().meta({ description: 'works without credentials until expiresAt; shown once' }),
    expiresAt: isoDateTime,
  })
  .meta({ id: 'CreatedStorageLink' });

export const storageLinkSchema = z
  .object({
    id: z.uuid(),
    cid: z.string(),
    expiresAt: isoDateTime,
    revokedAt: isoDateTime.nullable(),
    createdAt: isoDateTime,
  })
  .meta({ id: 'StorageLink' });

export const listLinksInput = z.strictObject({ cid: cidString.optional() });
export const linkIdInput = z.strictObject({ id: z.string().min(1).max(100) });

export const pinSchema = z
  .object({
    id: z.uuid(),
    cid: z.string(),
    owner: address,
    timestamp: z.number().int().meta({ description: 'Unix seconds of pin creation' }),
    status: z.enum(PIN_STATUS),
    verifiedAt: isoDateTime.nullable(),
    failureReason: z.string().nullable(),
    name: z.string().nullable(),
    metadata: z.object({
      filename: z.string().optional(),
      mimetype: z.string().optional(),
      size: z.number().int().optional(),
    }),
    meta: z
      .record(z.string(), z.string())
      .nullable()
      .meta({ description: 'the Pinning Service API `meta` key-values given with the pin' }),
    visibility: z.enum(PIN_VISIBILITY),
    daoId: z.uuid().nullable(),
    createdAt: isoDateTime,
  })
  .meta({ id: 'Pin' });

/** a pin of the caller's list (`storage.myPins`): the pin and how many owners its CID has, the caller included */
export const myPinSchema = pinSchema
  .extend({
    owners: z.number().int().meta({ description: 'owners of this CID, you included' }),
  })
  .meta({ id: 'MyPin' });

/** the orders of the files page's pin list (docs/storage.md, "Pins") */
export const MY_PINS_SORT = z.enum(['newest', 'oldest', 'name', 'size']).meta({
  description:
    'newest (default) or oldest first by pin time; name: by name (else file name) A–Z, unnamed last; size: largest first, unknown sizes last',
});
export type MyPinsSort = z.output<typeof MY_PINS_SORT>;

export const myPinsInput = z.strictObject({
  ...pageQuery,
  status: z.enum(PIN_STATUS).optional(),
  /** search in the name, the file name and the `meta` values, ignoring case */
  q: z.string().trim().max(200).optional(),
  sort: MY_PINS_SORT.default('newest'),
});

export const unpinnedSchema = z.object({
  cid: z.string(),
  owners: z.array(address).meta({ description: 'the wallets whose pins were removed' }),
  unpinnedFromNode: z.boolean().meta({ description: 'true when no owner was left, so the node dropped it' }),
});

export const uploadResultSchema = z
  .object({
    cid: z.string(),
    size: z.number().int(),
    mimetype: z.string(),
    filename: z.string().nullable(),
  })
  .meta({ id: 'UploadResult' });

export const uploadForm = z.object({
  file: z.string().meta({
    format: 'binary',
    description:
      'the file (field name `file`); with wrapWithDirectory, one part per file, its filename the path in the folder (`a/b.txt`)',
  }),
  wrapWithDirectory: z
    .enum(['true', 'false'])
    .optional()
    .meta({ description: 'true: the files become one folder (also accepted as a query parameter)' }),
  ...visibilityFields,
});

// --- folders, several files, CAR import (docs/storage.md, "Folders and several files", "CAR import") ---

export const folderUploadResultSchema = z
  .object({
    cid: z.string().meta({ description: 'the folder (UnixFS directory), pinned for your wallet' }),
    size: z.number().int().meta({ description: 'bytes of all files' }),
    files: z.array(
      z.object({ path: z.string(), cid: z.string(), size: z.number().int(), mimetype: z.string() }),
    ),
  })
  .meta({ id: 'FolderUploadResult' });

export const folderListingSchema = z
  .object({
    cid: z.string(),
    path: z.string().meta({ description: 'the listed folder inside cid ("" for cid itself)' }),
    entries: z.array(
      z.object({
        name: z.string(),
        cid: z.string(),
        size: z.number().int(),
        type: z.enum(['file', 'directory']),
      }),
    ),
  })
  .meta({ id: 'FolderListing' });

export const carImportResultSchema = z
  .object({
    roots: z.array(z.object({ cid: z.string(), size: z.number().int() })),
    blocks: z.number().int(),
    size: z.number().int(),
  })
  .meta({ id: 'CarImportResult' });

// --- IPFS Pinning Service API v1.0.0 ---

export const PSA_STATUS = ['queued', 'pinning', 'pinned', 'failed'] as const;
export const PSA_MATCH = ['exact', 'iexact', 'partial', 'ipartial'] as const;

const meta = z
  .record(z.string().min(1).max(255), z.string().max(2000))
  .refine((m) => Object.keys(m).length <= 100, 'at most 100 entries');

export const psaPin = z
  .strictObject({
    cid: cidString,
    name: z.string().max(255).optional(),
    origins: z.array(z.string().min(1).max(1000)).max(20).optional(),
    meta: meta.optional(),
  })
  .meta({ id: 'PsaPin' });

export const psaPinStatus = z
  .object({
    requestid: z.string(),
    status: z.enum(PSA_STATUS),
    created: isoDateTime,
    pin: z.object({
      cid: z.string(),
      name: z.string().optional(),
      origins: z.array(z.string()).optional(),
      meta: z.record(z.string(), z.string()).optional(),
    }),
    delegates: z.array(z.string()),
    info: z.record(z.string(), z.string()).optional(),
  })
  .meta({ id: 'PsaPinStatus' });

export const psaPinResults = z
  .object({ count: z.number().int(), results: z.array(psaPinStatus) })
  .meta({ id: 'PsaPinResults' });

export const psaFailure = z
  .object({ error: z.object({ reason: z.string(), details: z.string().optional() }) })
  .meta({ id: 'PsaFailure' });

const csv = (max: number) =>
  z
    .string()
    .transform((s) =>
      s
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.string()).min(1).max(max));

/** GET /pins query (strings as they arrive in the URL) */
export const psaListQuery = z.strictObject({
  cid: csv(10).pipe(z.array(cidString)).optional(),
  name: z.string().min(1).max(255).optional(),
  match: z.enum(PSA_MATCH).optional(),
  status: csv(4)
    .pipe(z.array(z.enum(PSA_STATUS)))
    .optional(),
  before: isoDateTime.optional(),
  after: isoDateTime.optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(10),
  meta: z
    .string()
    .max(10_000)
    .transform((s, ctx) => {
      try {
        return JSON.parse(s) as unknown;
      } catch {
        ctx.addIssue({
          code: 'custom',
          params: { code: 'not_json_object' },
          message: 'must be a JSON object',
        });
        return z.NEVER;
      }
    })
    .pipe(z.record(z.string(), z.string()))
    .optional(),
});

// --- personal access tokens ---

/**
 * What a personal access token may do (docs/accounts.md, "Token scopes"): `read` every read, `governance`
 * the governance writes, `storage` the storage writes, `account` the account writes and admin actions.
 */
export const TOKEN_SCOPES = ['read', 'governance', 'storage', 'account'] as const;
export const tokenScope = z.enum(TOKEN_SCOPES);
export type TokenScope = z.output<typeof tokenScope>;
/** a token created without `scopes`, and every token made before scopes existed */
export const DEFAULT_TOKEN_SCOPES: readonly TokenScope[] = ['read', 'governance', 'storage'];

export const tokenScopes = z
  .array(tokenScope)
  .min(1)
  .refine((s) => new Set(s).size === s.length, refined('scopes_distinct', 'must not repeat a scope'))
  .meta({
    description:
      'What the token may do: read (every read), governance, storage, account (account writes and admin ' +
      'actions). Absent: read, governance and storage.',
  });

export const createTokenInput = z.strictObject({
  name: z.string().trim().min(1).max(100),
  scopes: tokenScopes.optional(),
  expiresAt: z
    .union([isoDateTime, z.literal('never')])
    .optional()
    .meta({
      description:
        'When the token stops working. Absent: 90 days from now. "never": it never expires and works ' +
        'until revoked, so a leaked copy works until then too (docs/accounts.md, "Personal access tokens").',
    }),
});

export const accessTokenSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    prefix: z.string().meta({ description: 'first characters, to recognise the token' }),
    scopes: z.array(tokenScope),
    expiresAt: isoDateTime.nullable(),
    lastUsedAt: isoDateTime.nullable().meta({ description: 'updated at most once a minute' }),
    createdAt: isoDateTime,
  })
  .meta({ id: 'AccessToken' });

export const createdTokenSchema = accessTokenSchema
  .extend({ token: z.string().meta({ description: 'shown once: store it now' }) })
  .meta({ id: 'CreatedAccessToken' });

export const tokenIdInput = z.strictObject({ id: z.string().min(1).max(100) });

// ---- quotas (docs/storage.md, "Quotas") ----

export const storageUsageSchema = z
  .object({
    usedBytes: z.number().int().min(0).meta({
      description: "bytes of the user's pins (uploads: file size; pins by CID: DAG size once pinned)",
    }),
    limitBytes: z
      .number()
      .int()
      .min(1)
      .nullable()
      .meta({ description: 'the user’s quota; null = unlimited' }),
    pins: z.number().int().min(0).meta({ description: 'pins in `pinned`' }),
    pendingPins: z.number().int().min(0).meta({ description: 'pins in `pinning` (still being fetched)' }),
  })
  .meta({ id: 'StorageUsage' });

// ---- garbage collection (docs/storage.md, "Garbage collection") ----

/** POST /admin/storage/gc: what one garbage collection run of the embedded node did (docs/storage.md) */
export const gcReportSchema = z
  .object({
    blocksRemoved: z.number().int().meta({ description: 'blocks deleted from the blockstore' }),
    bytesFreed: z.number().int().meta({ description: 'their bytes on disk' }),
    blocksKept: z.number().int().meta({ description: 'blocks left (pinned, or touched by work in flight)' }),
    bytesKept: z.number().int().meta({ description: 'the blockstore’s bytes after the run' }),
    roots: z.number().int().meta({ description: 'pinned roots walked (node pins and pin records)' }),
    durationMs: z.number().int(),
    startedAt: isoDateTime,
    trigger: z.enum(['admin', 'watermark', 'hidden-unpinned']).meta({
      description: 'who started the run this request joined (a request during a run gets that run’s report)',
    }),
  })
  .meta({ id: 'GcReport' });
