import { z } from 'zod';

/**
 * OIDC_PROVIDERS (docs/accounts.md, "Signing in with OpenID Connect"): a JSON array of
 * `{ id, name, issuer, clientId, clientSecret }`. The id is a slug that names the provider in paths and
 * is unique; the issuer is https, or http only on a loopback host (a provider run for tests).
 */
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

const provider = z.object({
  id: z.string().regex(/^[a-z0-9][a-z0-9-]{0,39}$/, 'must be a slug: a-z, 0-9 and -, at most 40 characters'),
  name: z.string().trim().min(1).max(60),
  issuer: z.url().refine(
    (u) => {
      const url = new URL(u);
      return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.has(url.hostname));
    },
    { message: 'must be an https URL (http only for a loopback host)' },
  ),
  clientId: z.string().min(1),
  clientSecret: z.string().min(1),
});

export const oidcProvidersEnv = z
  .string()
  .optional()
  .transform((v, ctx) => {
    if (v === undefined || v.trim() === '') return [];
    let json: unknown;
    try {
      json = JSON.parse(v);
    } catch {
      ctx.addIssue({
        code: 'custom',
        message: 'must be a JSON array of { id, name, issuer, clientId, clientSecret }',
      });
      return z.NEVER;
    }
    const parsed = z.array(provider).safeParse(json);
    if (!parsed.success) {
      // the field's place in the array, never its value (a client secret must not reach a log)
      for (const i of parsed.error.issues) {
        const [index, ...field] = i.path.map(String);
        const where = index === undefined ? '' : `[${index}]${field.length ? `.${field.join('.')}` : ''}: `;
        ctx.addIssue({ code: 'custom', message: `${where}${i.message}` });
      }
      return z.NEVER;
    }
    const ids = parsed.data.map((p) => p.id);
    const twice = ids.find((id, i) => ids.indexOf(id) !== i);
    if (twice) {
      ctx.addIssue({ code: 'custom', message: `the id "${twice}" is given twice` });
      return z.NEVER;
    }
    return parsed.data;
  });
