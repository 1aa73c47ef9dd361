/**
 * @simplewebauthn/server, imported on the first passkey request rather than at start: it is several MB of
 * heap and about 30 MB of resident memory that a server whose members never use a passkey should not
 * carry (docs/operations.md, "Memory of the embedded mode"). Node keeps the module once loaded.
 */
export const webauthn = () => import('@simplewebauthn/server');

export type WebAuthn = Awaited<ReturnType<typeof webauthn>>;
