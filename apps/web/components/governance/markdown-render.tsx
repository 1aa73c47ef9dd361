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
 * The markdown renderer behind markdown.tsx: GitHub's tables, task lists and strikethrough. No raw HTML
 * (shown as text), and rehype-sanitize's allow-list on what markdown makes (no `javascript:` links,
 * no event handlers); links open in a new tab without the opener. Public pages run it on the server
 * (rendered-markdown.tsx); the browser loads it only for a description the server did not render.
 */
export function MarkdownBody({ source }: { source: string }) {
  return (
    <ReactMarkdown
      remarkPlugins={[remarkGfm, htmlAsText]}
      rehypePlugins={[rehypeSanitize]}
      components={{
        a: ({ node: _node, ...props }) => <a {...props} target="_blank" rel="noopener noreferrer nofollow" />,
      }}
    >
      {source}
    </ReactMarkdown>
  );
}

/** what a one-paragraph preview keeps of the markup: emphasis and code; the rest becomes its text */
const INLINE = ['strong', 'em', 'del', 'code'];

/** the same markdown, safe in the same way, as inline text (headings, lists and links become their words) */
export function MarkdownInlineBody({ source }: { source: string }) {
  return (
    <ReactMarkdown
      remarkPlugins={[remarkGfm, htmlAsText]}
      rehypePlugins={[rehypeSanitize]}
      allowedElements={INLINE}
      // the blocks' words stay, separated by the line breaks between them
      unwrapDisallowed
    >
      {source}
    </ReactMarkdown>
  );
}
