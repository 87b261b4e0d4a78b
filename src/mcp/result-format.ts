/**
 * A tool result as a Markdown document for a read-only editor: text as text, structured
 * content and unknown blocks as JSON, images inline, resource links as links, and an
 * error result marked as one.
 */

interface Block {
  type?: string;
  text?: string;
  data?: string;
  mimeType?: string;
  uri?: string;
  name?: string;
  title?: string;
  resource?: { uri?: string; text?: string; mimeType?: string };
}

function fence(text: string, language = ''): string {
  // A fence longer than any run of backticks inside, so server text cannot close it.
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const ticks = '`'.repeat(longest + 1);
  return `${ticks}${language}\n${text}\n${ticks}`;
}

export function formatToolResult(server: string, tool: string, args: unknown, result: Record<string, unknown>): string {
  const lines: string[] = [`# ${tool} on ${server}`, ''];
  lines.push(result.isError === true ? '**The tool reported an error.**' : 'The tool returned a result.', '');
  // Undefined: a task picked up again after a reload, whose arguments were never kept.
  const shownArgs = args === undefined ? 'Not kept: the task was picked up again after a reload of the window, and its arguments are never stored.' : fence(JSON.stringify(args, null, 2), 'json');
  lines.push('## Arguments', '', shownArgs, '');
  const content = Array.isArray(result.content) ? (result.content as Block[]) : [];
  if (content.length > 0) lines.push('## Content', '');
  for (const block of content) {
    switch (block.type) {
      case 'text':
        lines.push(fence(block.text ?? ''), '');
        break;
      case 'image':
        lines.push(`Image (${block.mimeType ?? 'unknown type'}, ${Math.round(((block.data?.length ?? 0) * 3) / 4)} bytes):`, '');
        lines.push(`![image](data:${block.mimeType ?? 'image/png'};base64,${block.data ?? ''})`, '');
        break;
      case 'audio':
        lines.push(`Audio (${block.mimeType ?? 'unknown type'}, ${Math.round(((block.data?.length ?? 0) * 3) / 4)} bytes)`, '');
        break;
      case 'resource_link':
        lines.push(`Resource link: [${(block.title ?? block.name ?? block.uri ?? '').replace(/[[\]]/g, '')}](<${block.uri ?? ''}>)`, '');
        break;
      case 'resource':
        lines.push(`Embedded resource <${block.resource?.uri ?? ''}>:`, '', fence(block.resource?.text ?? JSON.stringify(block.resource, null, 2)), '');
        break;
      default:
        lines.push(fence(JSON.stringify(block, null, 2), 'json'), '');
    }
  }
  if (result.structuredContent !== undefined) {
    lines.push('## Structured content', '', fence(JSON.stringify(result.structuredContent, null, 2), 'json'), '');
  }
  return lines.join('\n');
}
