'use client';
import dynamic from 'next/dynamic';
import { createContext, type ReactNode, useContext, useMemo } from 'react';

/** descriptions already rendered on the server (rendered-markdown.tsx), by `block:` or `inline:` and source */
const Rendered = createContext<ReadonlyMap<string, ReactNode>>(new Map());

export function MarkdownProvider({
  entries,
  children,
}: {
  entries: readonly (readonly [string, ReactNode])[];
  children: ReactNode;
}) {
  const outer = useContext(Rendered);
  const map = useMemo(() => new Map([...outer, ...entries]), [outer, entries]);
  return <Rendered.Provider value={map}>{children}</Rendered.Provider>;
}

// the renderer (~48 kB) loads only for a description the server did not render (an edit, a live change)
const Body = dynamic(() => import('./markdown-render').then((m) => m.MarkdownBody));
const InlineBody = dynamic(() => import('./markdown-render').then((m) => m.MarkdownInlineBody));

/**
 * A proposal's or a DAO's description: markdown (components/governance/markdown-render.tsx says what is
 * allowed), from the server's rendering when it has one for this very text.
 */
export function Markdown({ children, className = '' }: { children: string; className?: string }) {
  const rendered = useContext(Rendered).get(`block:${children}`);
  return (
    <div
      className={`prose prose-sm max-w-none break-words dark:prose-invert ${className}`}
      data-testid="markdown"
    >
      {rendered ?? <Body source={children} />}
    </div>
  );
}

/**
 * A description shortened to a preview line (a DAO card): the same markdown, safe in the same way, as
 * inline text (headings, lists and links become their words), so a clamp to two lines can cut it.
 */
export function MarkdownInline({ children, className = '' }: { children: string; className?: string }) {
  const rendered = useContext(Rendered).get(`inline:${children}`);
  return (
    <p className={className} data-testid="markdown-inline">
      {rendered ?? <InlineBody source={children} />}
    </p>
  );
}
