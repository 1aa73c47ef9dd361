/**
 * Where the page remembers the theme between loads (the server-side preference stays the truth).
 * next-themes reads it in a script before the first paint, so a reload shows the theme without a flash.
 */
export const THEME_KEY = 'plenum.theme';
