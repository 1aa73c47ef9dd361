import { router } from '../../trpc';
import { chainTokensRouter } from './chain-tokens';
import { commentsRouter } from './comments';
import { daosRouter } from './daos';
import { delegatesRouter } from './delegates';
import { delegationRouter } from './delegation';
import { eip712Router } from './eip712';
import { membersRouter } from './members';
import { ownershipRouter } from './ownership';
import { permissionsRouter } from './permissions';
import { proposalsRouter } from './proposals';
import { rolesRouter } from './roles';
import { settingsRouter } from './settings';
import { votesRouter } from './votes';

export const governanceRouter = router({
  daos: daosRouter,
  members: membersRouter,
  settings: settingsRouter,
  roles: rolesRouter,
  ownership: ownershipRouter,
  permissions: permissionsRouter,
  proposals: proposalsRouter,
  votes: votesRouter,
  eip712: eip712Router,
  tokens: chainTokensRouter,
  delegation: delegationRouter,
  delegates: delegatesRouter,
  comments: commentsRouter,
});
