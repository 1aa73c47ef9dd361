/** where the page remembers the theme between loads (the server-side preference stays the truth) */
export const THEME_KEY = 'plenum.theme';

/** Runs in <head> before the page is painted, so a reload shows the chosen theme without a flash. */
export const themeBootScript = `try{var t=localStorage.getItem('${THEME_KEY}');if(t==='dark'||t==='light')document.documentElement.dataset.theme=t}catch(e){}`;
