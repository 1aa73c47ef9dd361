import ReactMarkdown from 'react-markdown';
import rehypeSanitize from 'rehype-sanitize';
import remarkGfm from 'remark-gfm';

interface MdNode {
  type: string;
  value?: string;
  children?: MdNode[];
}

/** Raw HTML in the source is shown as the text it is, never turned into markup. */
function htmlAsText() {
  const walk = (node: MdNode) => {
    if (node.type === 'html') node.type = 'text';
    node.children?.forEach(walk);
  };
  return (tree: MdNode) => walk(tree);
}

/**
 * A proposal's or a DAO's description: markdown with GitHub's tables, task lists and strikethrough. No raw HTML
 * (shown as text), and rehype-sanitize's allow-list on what markdown makes (no `javascript:` links,
 * no event handlers); links open in a new tab without the opener.
 */
export function Markdown({ children, className = '' }: { children: string; className?: string }) {
  return (
    <div
      className={`prose prose-sm max-w-none break-words dark:prose-invert ${className}`}
      data-testid="markdown"
    >
      <ReactMarkdown
        remarkPlugins={[remarkGfm, htmlAsText]}
        rehypePlugins={[rehypeSanitize]}
        components={{
          a: ({ node: _node, ...props }) => (
            <a {...props} target="_blank" rel="noopener noreferrer nofollow" />
          ),
        }}
      >
        {children}
      </ReactMarkdown>
    </div>
  );
}

/** what a one-paragraph preview keeps of the markup: emphasis and code; the rest becomes its text */
const INLINE = ['strong', 'em', 'del', 'code'];

/**
 * A description shortened to a preview line (a DAO card): the same markdown, safe in the same way, as
 * inline text (headings, lists and links become their words), so a clamp to two lines can cut it.
 */
export function MarkdownInline({ children, className = '' }: { children: string; className?: string }) {
  return (
    <p className={className} data-testid="markdown-inline">
      <ReactMarkdown
        remarkPlugins={[remarkGfm, htmlAsText]}
        rehypePlugins={[rehypeSanitize]}
        allowedElements={INLINE}
        // the blocks' words stay, separated by the line breaks between them
        unwrapDisallowed
      >
        {children}
      </ReactMarkdown>
    </p>
  );
}
