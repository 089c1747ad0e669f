/**
 * Spans from OpenTelemetry's in-memory exporter, as a tree a person can read: each span's name,
 * then the attributes worth seeing, children indented under their parent in the order they began.
 */
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';

export interface SpanNode {
  span: ReadableSpan;
  children: SpanNode[];
}

export function spanTrees(spans: readonly ReadableSpan[]): SpanNode[] {
  const nodes = new Map<string, SpanNode>();
  const ordered = [...spans].sort((a, b) => compareTime(a.startTime, b.startTime));
  for (const span of ordered) nodes.set(span.spanContext().spanId, { span, children: [] });
  const roots: SpanNode[] = [];
  for (const node of nodes.values()) {
    const parent = node.span.parentSpanContext?.spanId;
    const owner = parent === undefined ? undefined : nodes.get(parent);
    (owner ? owner.children : roots).push(node);
  }
  return roots;
}

/** The tree as lines of text; `keys` are the attributes shown (all when left out). */
export function printTree(roots: readonly SpanNode[], keys?: readonly string[]): string {
  const lines: string[] = [];
  const visit = (node: SpanNode, lead: string, branch: string) => {
    const { span } = node;
    const shown = Object.entries(span.attributes)
      .filter(([key]) => !keys || keys.includes(key))
      .map(([key, value]) => `${key}=${String(value)}`);
    const status = span.status.code === 2 ? ' ERROR' : '';
    lines.push(
      `${lead}${branch}${span.name}${status}${shown.length ? `  {${shown.join(', ')}}` : ''}`,
    );
    const next = lead + (branch === '├─ ' ? '│  ' : branch === '└─ ' ? '   ' : '');
    node.children.forEach((child, index) => {
      visit(child, next, index === node.children.length - 1 ? '└─ ' : '├─ ');
    });
  };
  for (const root of roots) visit(root, '', '');
  return lines.join('\n');
}

function compareTime(a: readonly [number, number], b: readonly [number, number]): number {
  return a[0] - b[0] || a[1] - b[1];
}
