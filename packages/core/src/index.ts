/**
 * The package's public surface: what the API, the server (with its tests and benches) and the other
 * packages import from '@plenum/core'. Everything else stays internal to core; a module's other exports
 * are for core itself (and for '@plenum/core/<module>' imports). Export a name here when another package
 * starts to use it.
 */

export { serializeUser } from './accounts/serialize';
export { createAccessToken, listAccessTokens, revokeAccessToken } from './auth/access-tokens';
export {
  ACCOUNT_EVENT_RETENTION_MS,
  listAccountEvents,
  recordAccountEvent,
  sweepAccountEvents,
} from './auth/activity';
export { confirmEmailChange, requestEmailChange, undoEmailChange } from './auth/email-change';
export { hasSecondFactor } from './auth/factors';
export {
  confirmIdentityLink,
  listIdentities,
  providerNameOf,
  unlinkIdentity,
} from './auth/identities';
export { completeMfaLogin } from './auth/mfa/login';
export {
  confirmTotp,
  disableTotp,
  mfaStatus,
  regenerateRecoveryCodes,
  startTotpEnrolment,
} from './auth/mfa/totp';
export {
  finishOidc,
  OIDC_STATE_TTL_MS,
  type OidcErrorCode,
  type OidcOutcome,
  oidcCallbackUrl,
  safeReturnTo,
  startOidc,
} from './auth/oidc/flow';
export { redeemHandoff, sealHandoff } from './auth/oidc/handoff';
export { OIDC_TIMEOUT_S, type OidcProviderConfig } from './auth/oidc/providers';
export { isLocalAppUrl, isLoopbackAddress, outboxReadable } from './auth/outbox-access';
export { passkeyLogin, passkeyLoginOptions } from './auth/passkeys/login';
export { deletePasskey, listPasskeys } from './auth/passkeys/manage';
export { passkeyRegistrationOptions, registerPasskey } from './auth/passkeys/register';
export { changePassword } from './auth/password/change';
export {
  dummyPasswordHash,
  hashPassword,
  hasPassword,
  NO_PASSWORD,
  verifyPassword,
} from './auth/password/hash';
export { login } from './auth/password/login';
export { requestPasswordReset, resetPassword } from './auth/password/reset';
export { MFA_METHODS, type MfaChallenge } from './auth/second-factor';
export { finishSecondFactor } from './auth/second-step';
export { deleteSession, PAT_PREFIX, type Principal, resolveToken, SESSION_SCOPES } from './auth/sessions';
export { siweLogin } from './auth/siwe/login';
export { issueNonce } from './auth/siwe/nonce';
export { listSessions, revokeOtherSessions, revokeSession } from './auth/user-sessions';
export { unlinkWallet } from './auth/wallet-unlink';
export { linkWallet, listWallets, pageWallets, setPrimaryWallet } from './auth/wallets';
export { ChainReader } from './chain';
export { type CoreConfig, defaultPasswordPolicy } from './config';
// discussion on proposals (docs/discussion.md)
export {
  COMMENT_TYPED_DATA_SPEC,
  commentEdits,
  commentTypedDataOf,
  deleteComment,
  editComment,
  listComments,
  postComment,
  setCommentHidden,
} from './discussion/index';
export { EventBus, type EventBusOptions } from './events/bus';
export { maxEventId, readEvents } from './events/feed';
export type { EventFilter } from './events/filter';
export { ConnectionStreams, type Release, type StreamConnection } from './events/limits';
export { eventStream } from './events/stream';
export type { LiveEventSource } from './events/subscription';
export { delegationOf, listDelegates, setDelegateStatement } from './governance/delegates';
export {
  DELEGATION_TYPED_DATA_SPEC,
  DELEGATION_TYPES,
  removeDelegation,
  setDelegation,
} from './governance/delegation';
export { appendEvents, EVENTS_CHANNEL, type EventEnvelope, type NewEvent } from './governance/event-log';
export {
  acceptOwnership,
  addMember,
  approveDao,
  bulkAddMembers,
  cancelProposal,
  castVote,
  createDao,
  createProposal,
  daoHistory,
  describeToken,
  type GovernanceRuntime,
  getDao,
  getDaoPermissions,
  getProposal,
  getResults,
  getVote,
  getVoterVote,
  getVotingPower,
  listDaos,
  listDaosByOwner,
  listMembers,
  listProposals,
  listRoles,
  listVotes,
  proposalHistory,
  rejectDao,
  removeMember,
  removeRole,
  StatusScheduler,
  type SystemScores,
  scoreBallots,
  setDaoStatus,
  setRole,
  setTokenBalance,
  transferOwnership,
  updateDao,
  updateProposal,
  VOTE_SIGNING_GUIDE,
  VOTE_TYPED_DATA_SPEC,
  withdrawOwnershipTransfer,
} from './governance/index';
export {
  checkUnsubscribeToken,
  sendDueReminders,
  UNSUBSCRIBE_TOKEN_TTL_MS,
  unsubscribeByToken,
} from './governance/notifications';
export {
  openRecordCar,
  proposalRecord,
  RecordPublisher,
  recordAttestor,
  recordCarPath,
  voteReceipt,
} from './governance/record/index';
export { CLOSED_STATUSES, isClosedStatus } from './governance/rows';
export { storedBallot } from './governance/system-tallies';
export {
  csvHeader,
  csvRecords,
  type ExportedVote,
  jsonClose,
  jsonElements,
  jsonOpen,
  openVoteExport,
  VOTE_EXPORT_FORMATS,
  type VoteExport,
  type VoteExportFormat,
} from './governance/vote-export';
export { type EmailTransport, listOutbox, processOutbox } from './mail/outbox';
export { createCoreServices, type Services } from './services';
export { type Clock, ManualClock, systemClock } from './shared/clock';
export {
  AppError,
  badRequest,
  type Detail,
  type ErrorCode,
  type FieldIssue,
  type Reason,
  unauthorized,
} from './shared/errors';
export { createLogger, type Logger } from './shared/logger';
export { hashToken, newToken } from './shared/tokens';
export {
  checkFolderRead,
  checkUploadPath,
  collectGarbage,
  createEmbeddedNode,
  createLink,
  createStorageRuntime,
  findProviderError,
  type GcReport,
  type GcResult,
  getContent,
  getMetadata,
  hasEmbeddedNode,
  importCar,
  importFolder,
  importSpooledFile,
  isActiveContent,
  LINK_PATH,
  listFolder,
  listLinks,
  listPinRequests,
  listPinsOfUser,
  type NodeProvider,
  NothingPinnedError,
  type OpenedFile,
  openFile,
  openFileAtPath,
  openLink,
  ownerWalletOf,
  parseCid,
  pinForCaller,
  pinOfUser,
  pinStatusView,
  pinView,
  recordedPinnedCids,
  removePins,
  replacePinRequest,
  requeuePendingPins,
  requireReadable,
  revokeLink,
  type SpooledFile,
  type StorageRuntime,
  type StorageServices,
  sessionEntityOf,
  setPinVisibility,
  spoolFile,
  startBlockPrivacy,
  startPinVerifier,
  tooLarge,
  UPLOAD_MAX_FILES,
  unpinForCaller,
  uploadAndPin,
  type VisibilityRequest,
  writePinsCar,
} from './storage/index';
// storage quotas, the seam for every writer that stores (docs/storage.md, "Quotas")
export {
  assertCanPin,
  lockUserStorage,
  quotaExceeded,
  type Reservation,
  remainingBytes,
  reserveStorage,
  type StorageUsage,
  storageUsage,
} from './storage/quota';
export type { Actor } from './users/access';
export {
  AUDIT_EXPORT_COLUMNS,
  type AuditExportReader,
  auditCsvHeader,
  auditCsvRecords,
  openAuditExport,
} from './users/admin/audit-export';
export { type AuditEntry, type AuditFilters, listAuditLog } from './users/admin/audit-log';
export { listUsers } from './users/admin/list-users';
export { reactivateUser } from './users/admin/reactivate';
export { registrationsByDay, userStats } from './users/admin/stats';
export { setStorageQuota } from './users/admin/storage-quota';
export { suspendUser } from './users/admin/suspend';
export {
  adminRevokeSessions,
  adminSendPasswordReset,
  factorKindsOf,
  getAdminUserDetail,
  identitiesOf,
} from './users/admin/user-detail';
export {
  allowedAvatarMimes,
  assertCanUploadAvatar,
  avatarDir,
  locateAvatar,
  saveAvatar,
} from './users/avatar';
export { deleteUser } from './users/delete-user';
export { getUser } from './users/get-user';
export { getPreferences, updatePreferences } from './users/preferences';
export { getPublicProfile } from './users/profile';
export { type AddressProfile, profilesByAddress } from './users/profiles-by-address';
export { registerUser } from './users/register';
export { resendVerification } from './users/resend-verification';
export { applyAdminEmails, setRoleByEmail } from './users/set-role';
export { updateUser } from './users/update-user';
export { verifyEmail } from './users/verify-email';
// webhooks (docs/webhooks.md)
export { catchUpStoredEvents, queueAndMark } from './webhooks/fan-out';
export {
  enqueueStorageEvent,
  listDeliveries,
  processDueDeliveries,
  queueTestDelivery,
  redeliver,
} from './webhooks/queue';
export { WebhookAgents } from './webhooks/send';
export {
  createWebhook,
  DAO_WEBHOOK_EVENTS,
  deleteWebhook,
  listWebhooks,
  rotateWebhookSecret,
  STORAGE_WEBHOOK_EVENTS,
  updateWebhook,
} from './webhooks/subscriptions';
