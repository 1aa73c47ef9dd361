/** LIKE pattern for a literal substring: the user's % and _ match themselves (`\` is the default escape). */
export const likePattern = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
