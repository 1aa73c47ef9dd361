// Tailwind CSS 4 runs as a PostCSS plugin; app/globals.css imports it and declares the design tokens.
export default { plugins: { '@tailwindcss/postcss': {} } };
