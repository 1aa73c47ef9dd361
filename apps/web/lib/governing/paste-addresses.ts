/**
 * A pasted list of addresses → its entries: one per line or separated by commas, semicolons or spaces,
 * blanks dropped. Each is checked by the server on its own (POST /daos/{daoId}/members/bulk), so a bad or
 * repeated one is reported there, not dropped here.
 */
export const pastedAddresses = (text: string) =>
  text
    .split(/[\s,;]+/)
    .map((a) => a.trim())
    .filter((a) => a.length > 0);
