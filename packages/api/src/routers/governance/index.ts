import { router } from '../../trpc';
import { chainTokensRouter } from './chain-tokens';
import { daosRouter } from './daos';
import { eip712Router } from './eip712';
import { membersRouter } from './members';
import { permissionsRouter } from './permissions';
import { proposalsRouter } from './proposals';
import { votesRouter } from './votes';

export const governanceRouter = router({
  daos: daosRouter,
  members: membersRouter,
  permissions: permissionsRouter,
  proposals: proposalsRouter,
  votes: votesRouter,
  eip712: eip712Router,
  tokens: chainTokensRouter,
});
