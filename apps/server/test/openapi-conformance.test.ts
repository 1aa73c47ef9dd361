import { dereference } from '@readme/openapi-parser';
import Ajv2020 from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app';
import { activeUser, linkWallet, memberUser } from './support/factories';
import { addMember, createDao, createProposal, daoWithMembers, signedVote } from './support/governance';
import { type ApiClient, apiClient, type RecordedExchange } from './support/http';
import { PNG_1x1, uploadBytes } from './support/storage';

/**
 * What a schema-checking client (Schemathesis, an OpenAPI-generated SDK) relies on: every answer's status
 * is one the document lists for that operation, and a JSON body validates against that status's
 * schema. A realistic session over all three services, successes and refusals, checked exchange by
 * exchange against the document the server itself serves.
 */
interface Operation {
  responses: Record<string, { content?: Record<string, { schema?: object }> }>;
}
type Doc = { paths: Record<string, Record<string, Operation>> };

let t: TestApp;
let api: ApiClient;
const exchanges: RecordedExchange[] = [];
const ADMIN = 'conformance-admin@example.org';

beforeAll(async () => {
  t = await startTestApp({ env: { ADMIN_EMAILS: ADMIN } });
  api = apiClient(t.url, { record: (x) => exchanges.push(x) });
});
afterAll(() => t?.close());

function matcher(doc: Doc) {
  const routes = Object.entries(doc.paths).flatMap(([template, ops]) =>
    Object.entries(ops).map(([method, op]) => ({
      method: method.toUpperCase(),
      template,
      params: (template.match(/\{/g) ?? []).length,
      pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`),
      op,
    })),
  );
  // a literal path wins over a template that would also match it
  routes.sort((a, b) => a.params - b.params);
  return (method: string, path: string) =>
    routes.find((r) => r.method === method && r.pattern.test(path.split('?')[0]!));
}

describe('responses conform to the OpenAPI document', () => {
  it('lists every status answered and describes every JSON body', async () => {
    // a session over the three services: successes and the usual refusals
    const admin = await activeUser(api, { email: ADMIN });
    await linkWallet(api, admin);
    const { owner, dao, members } = await daoWithMembers(api, 2);
    const outsider = await memberUser(api);
    await api.get('/daos');
    await api.get(`/daos/${dao.daoId}`);
    await api.get(`/daos/${dao.daoId}/members`);
    await api.get(`/daos/owner/${owner.wallet.address}`);
    await api.post(
      `/daos/${dao.daoId}/members`,
      { memberAddress: members[0]!.wallet.address },
      { token: owner.token },
    );
    await api.post(
      `/daos/${dao.daoId}/members`,
      { memberAddress: outsider.wallet.address },
      { token: outsider.token },
    );
    const proposal = await createProposal(api, owner, dao.daoId);
    await api.get(`/proposals/dao/${dao.daoId}/active`);
    await api.get(`/proposals/${proposal.proposalId}`);
    await api.get(`/proposals/dao/${dao.daoId}`);
    const ownVote = {
      daoId: dao.daoId,
      proposalId: proposal.proposalId,
      voterAddress: owner.wallet.address,
      choice: 'For',
    };
    const vote = await api.post('/votes', ownVote, { token: owner.token });
    await api.post('/votes', ownVote, { token: owner.token }); // the second one is a 409
    await api.post(
      '/votes',
      await signedVote(members[1]!.wallet, {
        daoId: dao.daoId,
        proposalId: proposal.proposalId,
        choice: 'Against',
      }),
    );
    await api.post(
      '/votes',
      {
        daoId: dao.daoId,
        proposalId: proposal.proposalId,
        voterAddress: outsider.wallet.address,
        choice: 'For',
      },
      { token: outsider.token },
    );
    await api.get(`/votes/${vote.body.voteId}`);
    await api.get(`/votes/proposal/${proposal.proposalId}`);
    await api.get(`/votes/proposal/${proposal.proposalId}/results`);
    await api.get(`/votes/proposal/${proposal.proposalId}/export?format=json`);
    await api.get(`/votes/proposal/${proposal.proposalId}/export?format=xml`);
    await api.get('/votes/proposal/00000000-0000-4000-8000-000000000000/export?format=csv');
    await api.get(`/votes/proposal/${proposal.proposalId}/voter/${owner.wallet.address}`);
    await api.get('/eip712/vote');
    await api.put(
      `/daos/${dao.daoId}/members/${members[0]!.wallet.address}`,
      { tokenBalance: '5' },
      { token: owner.token },
    );
    await api.delete(`/daos/${dao.daoId}/members/${members[0]!.wallet.address}`, { token: owner.token });
    await addMember(api, owner, dao.daoId, members[0]!.wallet.address);
    const second = await createDao(api, owner);
    await api.post(`/daos/${second.daoId}/status`, { status: 'INACTIVE' }, { token: owner.token });

    // storage
    const up = await uploadBytes(api, owner.token, PNG_1x1, 'pixel.png', 'image/png');
    await uploadBytes(api, owner.token, '<html><script>1</script></html>', 'page.png', 'image/png');
    const cid = up.body.cid as string;
    await api.get(`/ipfs/metadata/${cid}`);
    await api.post(`/ipfs/pin/${cid}`, undefined, { token: outsider.token });
    // a segment past the router's parameter length matches no route: 404
    await api.post(`/ipfs/pin/${'b'.repeat(4097)}`, undefined, { token: outsider.token });
    // a control character in the query string, on plain routes and a procedure: 400 VALIDATION_FAILED
    await api.get(`/ipfs/file/${cid}?x=%00`);
    await api.get('/pins/00000000-0000-4000-8000-000000000000?x=%01', { token: outsider.token });
    await api.get(`/daos/${dao.daoId}?x=%00`);
    await api.get(`/pins?cid=${cid}`, { token: outsider.token });
    await api.delete(`/ipfs/unpin/${cid}`, { token: members[1]!.token });
    await api.delete(`/ipfs/unpin/${cid}`, { token: outsider.token });
    await api.get('/ipfs/not-a-cid');
    const created = await api.post('/auth/tokens', { name: 'ci' }, { token: owner.token });
    await api.get('/auth/tokens', { token: owner.token });
    await api.delete(`/auth/tokens/${created.body.id}`, { token: owner.token });

    // users and admin
    await api.get('/auth/me', { token: owner.token });
    await api.get('/auth/me');
    await api.get(`/users/${owner.id}`, { token: owner.token });
    await api.get(`/users/${owner.id}`, { token: outsider.token });
    await api.put(`/users/${owner.id}`, { bio: 'Gardener', role: 'admin' }, { token: owner.token });
    await api.put(`/users/${owner.id}`, { bio: 'Gardener' }, { token: owner.token });
    await api.get(`/users/${owner.id}/preferences`, { token: owner.token });
    await api.put(`/users/${owner.id}/preferences`, { theme: 'dark' }, { token: owner.token });
    await api.get(`/users/${owner.id}/profile`);
    await api.get('/admin/users?limit=5', { token: admin.token });
    await api.get('/admin/users', { token: owner.token });
    await api.get('/admin/stats', { token: admin.token });
    await api.get('/admin/stats/registrations', { token: admin.token });
    await api.get('/admin/audit-log', { token: admin.token });
    await api.post(`/admin/users/${outsider.id}/suspend`, { reason: 'spam' }, { token: admin.token });
    await api.post(`/admin/users/${outsider.id}/reactivate`, {}, { token: admin.token });
    await api.post('/auth/login', { email: owner.email, password: 'Wrong-pass-1' });
    await api.post('/users/resend-verification', { email: owner.email });
    await api.post('/auth/logout', undefined, { token: outsider.token });
    await api.get('/health');

    const doc = (await dereference(
      structuredClone((await api.get('/api/docs-json')).body),
    )) as unknown as Doc;
    const find = matcher(doc);
    const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
    const problems: string[] = [];
    const checked = new Set<string>();
    for (const x of exchanges) {
      const where = `${x.method} ${x.path} → ${x.status}`;
      const route = find(x.method, x.path);
      if (!route) {
        problems.push(`${where}: no such operation in the document`);
        continue;
      }
      checked.add(`${route.method} ${route.template}`);
      const response = route.op.responses[String(x.status)] ?? route.op.responses.default;
      if (!response) {
        problems.push(`${where}: status not listed (${Object.keys(route.op.responses).join(', ')})`);
        continue;
      }
      const schema = response.content?.['application/json']?.schema;
      if (!schema || !x.text) continue;
      let body: unknown;
      try {
        body = JSON.parse(x.text);
      } catch {
        problems.push(`${where}: documented as JSON, but the body is not JSON`);
        continue;
      }
      const validate = ajv.compile(schema);
      if (!validate(body))
        problems.push(
          `${where}: body does not match the schema: ${ajv.errorsText(validate.errors).slice(0, 300)}`,
        );
    }
    expect(problems, problems.join('\n')).toEqual([]);
    // the session really went through the three services
    expect(checked.size).toBeGreaterThan(40);
  });
});
