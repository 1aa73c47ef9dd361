import { router } from '../../trpc';
import { daosRouter } from './daos';
import { eip712Router } from './eip712';
import { membersRouter } from './members';
import { proposalsRouter } from './proposals';
import { tokensRouter } from './tokens';
import { votesRouter } from './votes';

export const governanceRouter = router({
  daos: daosRouter,
  members: membersRouter,
  proposals: proposalsRouter,
  votes: votesRouter,
  eip712: eip712Router,
  tokens: tokensRouter,
});
