/**
 * A closed proposal's verifiable record in the web app (docs/governance.md, "The proposal record"): the
 * CAR download, the verifier's command line and a vote's receipt as a file.
 */

/** the CAR's URL under the API this app talks to (GET /proposals/{proposalId}/record.car) */
export const recordCarUrl = (apiUrl: string, proposalId: string) =>
  `${apiUrl}/proposals/${encodeURIComponent(proposalId)}/record.car`;

/** the file name the API gives the CAR (Content-Disposition), also the link's `download` name */
export const recordCarFilename = (proposalId: string) => `proposal-${proposalId}-record.car`;

/** the one line that recounts the downloaded CAR offline, pinning the server's record key */
export const verifyCommand = (proposalId: string, publicKey: string) =>
  `npm run verify -- ${recordCarFilename(proposalId)} --key ${publicKey}`;

/** the file a vote's receipt downloads as */
export const receiptFilename = (voteId: string) => `receipt-${voteId}.json`;

/** the receipt as GET /votes/{voteId}/receipt gives it, as a link the browser saves as a file */
export const receiptDataUrl = (receipt: unknown) =>
  `data:application/json;charset=utf-8,${encodeURIComponent(`${JSON.stringify(receipt, null, 2)}\n`)}`;
