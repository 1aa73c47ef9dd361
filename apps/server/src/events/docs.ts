/** The live event endpoints, for the OpenAPI document's description (WebSockets are not OpenAPI paths). */
export const LIVE_EVENTS_DOC = `

## Live events (WebSocket)

Governance events \`dao_created\`, \`proposal_submitted\`, \`proposal_updated\` (the proposal and its \`changes\`), \`vote_cast\` (with the new results), \`proposal_status_changed\` (\`from\`, \`to\`, results; also a cancellation) \`delegation_changed\` (a delegator's old and new delegate), and the discussion's \`comment_posted\` and \`comment_updated\` (docs/discussion.md), each as one envelope \`{ id, type, daoId, proposalId?, occurredAt, data }\` with an increasing \`id\`. Two ways in, one stream:

- **tRPC subscription** \`events.stream\` over WebSocket at \`/trpc\` (connectionParams \`{ token }\`); input \`{ lastEventId?, events?, daoId?, proposalId? }\`; each event is \`tracked(id, envelope)\`, so the tRPC client resumes by itself after a reconnect.
- **Socket.IO** at \`/socket.io\`: handshake \`auth: { token }\` (a session or personal access token) and query \`lastEventId\`, \`daoId\`, \`proposalId\`, \`events\` (comma-separated names); one Socket.IO event per name with the envelope as its one argument. A refused handshake is a \`connect_error\` whose \`data\` is the error body.

With \`lastEventId\` the stored events after it are sent first, then live ones, each once and in id order; without it, only events from the moment of subscribing. Streams are capped per WebSocket and per user (beyond: \`TOO_MANY_REQUESTS\` with reason \`TOO_MANY_SUBSCRIPTIONS\`), and a client that stops reading is paused, not buffered.`;
