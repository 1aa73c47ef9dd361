import type { ReactNode } from 'react';
import { MarkdownProvider } from './markdown';
import { MarkdownBody, MarkdownInlineBody } from './markdown-render';

export interface MarkdownSources {
  blocks?: readonly (string | null | undefined)[];
  inlines?: readonly (string | null | undefined)[];
}

/**
 * Renders a page's descriptions on the server, so the markdown renderer is not shipped to the browser
 * for them (components/governance/markdown.tsx uses these while the text is the same).
 */
export function RenderedMarkdown({
  blocks = [],
  inlines = [],
  children,
}: MarkdownSources & { children: ReactNode }) {
  const entries: [string, ReactNode][] = [
    ...[...new Set(blocks)]
      .filter((s): s is string => !!s)
      .map((s): [string, ReactNode] => [`block:${s}`, <MarkdownBody key={s} source={s} />]),
    ...[...new Set(inlines)]
      .filter((s): s is string => !!s)
      .map((s): [string, ReactNode] => [`inline:${s}`, <MarkdownInlineBody key={s} source={s} />]),
  ];
  if (entries.length === 0) return children;
  return <MarkdownProvider entries={entries}>{children}</MarkdownProvider>;
}
