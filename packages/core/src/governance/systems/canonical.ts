/**
 * The signed text of a ballot (docs/governance.md, "Ballots"): RFC 8785 canonical JSON. It lives in the
 * shared validators package so the web app signs exactly what the server verifies.
 */
export { canonicalChoice, canonicalJson } from '@plenum/validators';
