// Core keeps no state of its own outside the service container (docs/architecture.md, "The service
// container and each operation's policy"): a module-level `let`, collection or instance would be shared
// by every container in the process and built behind its back. This reads core's source files with the
// TypeScript parser and names what it finds. A guard rail, not a proof: state hidden in a closure that a
// module-level call returns is not seen.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/** module-level state that stays, with why (path from packages/core/src, then the name) */
const ALLOWED = new Map<string, string>([
  [
    'auth/password/hash.ts dummyHash',
    'a memo of one constant: a hash of a random password, computed once for the process',
  ],
  ['shared/reclaim.ts gc', "the process's V8 gc function, looked up once (docs/internals.md)"],
  ['storage/car-import.ts CODECS', 'a constant table of the IPLD codecs a CAR block may use, never changed'],
  [
    'storage/car-import.ts HASHERS',
    'a constant table of the multihash functions a CAR block may use, never changed',
  ],
  [
    'governance/vote-signer.ts fieldHashes',
    'a bounded memo of keccak over short strings: the same answer with or without it, shared by any container',
  ],
]);

/** constructors whose instances hold no state */
const STATELESS = new Set(['TextEncoder', 'TextDecoder']);
/** methods that change the collection they are called on */
const MUTATORS = new Set([
  ...['push', 'pop', 'shift', 'unshift', 'splice', 'sort', 'reverse', 'fill', 'copyWithin'],
  ...['set', 'add', 'delete', 'clear'],
]);

const SRC = path.dirname(fileURLToPath(import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return p.endsWith('.ts') && !p.endsWith('.test.ts') ? [p] : [];
  });
}

const unwrap = (e: ts.Expression): ts.Expression =>
  ts.isAsExpression(e) || ts.isSatisfiesExpression(e) || ts.isParenthesizedExpression(e)
    ? unwrap(e.expression)
    : e;

/** `ReadonlyMap<…>`, `ReadonlySet<…>`, `readonly T[]`: the type checker refuses writes */
const readonlyType = (t: ts.TypeNode | undefined) =>
  !!t &&
  ((ts.isTypeReferenceNode(t) && /^Readonly(Map|Set|Array)$/.test(t.typeName.getText())) ||
    (ts.isTypeOperatorNode(t) && t.operator === ts.SyntaxKind.ReadonlyKeyword));

/** the identifier an access chain starts from: `a` in `a.b[c].d` */
function rootOf(e: ts.Expression): ts.Identifier | null {
  const u = unwrap(e);
  if (ts.isIdentifier(u)) return u;
  if (ts.isPropertyAccessExpression(u) || ts.isElementAccessExpression(u)) return rootOf(u.expression);
  return null;
}

/** whether `name` is declared by a function or block between `node` and the module (so it is not the module's) */
function shadowed(node: ts.Node, name: string): boolean {
  const declares = (n: ts.Node): boolean => {
    let found = false;
    const visit = (d: ts.Node) => {
      if (found) return;
      if ((ts.isVariableDeclaration(d) || ts.isParameter(d) || ts.isBindingElement(d)) && d.name) {
        if (ts.isIdentifier(d.name) && d.name.text === name) found = true;
        else if (!ts.isIdentifier(d.name)) ts.forEachChild(d.name, visit);
        return;
      }
      if (ts.isFunctionDeclaration(d) && d.name?.text === name) found = true;
      // a nested scope's own declarations do not shadow this one
      if (d !== n && (ts.isBlock(d) || ts.isFunctionLike(d))) return;
      ts.forEachChild(d, visit);
    };
    visit(n);
    return found;
  };
  for (let p = node.parent; p && !ts.isSourceFile(p); p = p.parent) {
    if (ts.isFunctionLike(p)) {
      if (p.parameters.some((param) => declares(param))) return true;
    } else if (ts.isBlock(p) || ts.isForStatement(p) || ts.isForOfStatement(p) || ts.isCatchClause(p)) {
      const own = ts.isBlock(p) ? p.statements.filter(ts.isVariableStatement) : [p];
      if (own.some((s) => declares(s))) return true;
    }
  }
  return false;
}

interface Finding {
  /** `file name`, as ALLOWED names it */
  key: string;
  text: string;
}

function moduleState(root: string): Finding[] {
  const files = sourceFiles(root).map((file) => ({
    rel: path.relative(root, file).split(path.sep).join('/'),
    sf: ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true),
  }));
  const found: Finding[] = [];
  const add = (rel: string, name: string, what: string, line?: number) =>
    found.push({ key: `${rel} ${name}`, text: `${rel}${line ? `:${line}` : ''} ${name}: ${what}` });
  // each module's top-level const names, for writes to them from anywhere in core
  const consts = new Map<string, Set<string>>();
  for (const { rel, sf } of files) {
    const names = new Set<string>();
    consts.set(rel, names);
    for (const st of sf.statements) {
      if (ts.isClassDeclaration(st))
        for (const m of st.members)
          if (
            ts.isPropertyDeclaration(m) &&
            ts.getCombinedModifierFlags(m) & ts.ModifierFlags.Static &&
            !(ts.getCombinedModifierFlags(m) & ts.ModifierFlags.Readonly)
          )
            add(rel, `${st.name?.text}.${m.name.getText(sf)}`, 'a static field that is not readonly');
      if (!ts.isVariableStatement(st)) continue;
      const isConst = (st.declarationList.flags & ts.NodeFlags.Const) !== 0;
      for (const d of st.declarationList.declarations) {
        const name = d.name.getText(sf);
        if (!isConst) {
          add(rel, name, 'a module-level let');
          continue;
        }
        names.add(name);
        const init = d.initializer && unwrap(d.initializer);
        if (
          init &&
          ts.isNewExpression(init) &&
          !STATELESS.has(init.expression.getText(sf)) &&
          !readonlyType(d.type)
        )
          add(rel, name, `a module-level new ${init.expression.getText(sf)}`);
      }
    }
  }
  for (const { rel, sf } of files) {
    // the module's own consts and those it imports from another core module, by their local names
    const mine = new Set(consts.get(rel));
    for (const st of sf.statements) {
      if (!ts.isImportDeclaration(st) || !ts.isStringLiteral(st.moduleSpecifier)) continue;
      const spec = st.moduleSpecifier.text;
      if (!spec.startsWith('.')) continue;
      const target = path.posix.join(path.posix.dirname(rel), spec);
      const theirs = consts.get(`${target}.ts`) ?? consts.get(`${target}/index.ts`);
      const named = st.importClause?.namedBindings;
      if (!theirs || !named || !ts.isNamedImports(named)) continue;
      for (const el of named.elements)
        if (theirs.has((el.propertyName ?? el.name).text)) mine.add(el.name.text);
    }
    const write = (node: ts.Node, target: ts.Expression, how: string) => {
      const id = rootOf(target);
      if (id && mine.has(id.text) && !shadowed(node, id.text))
        add(rel, id.text, how, sf.getLineAndCharacterOfPosition(node.getStart()).line + 1);
    };
    const visit = (node: ts.Node) => {
      if (
        ts.isBinaryExpression(node) &&
        node.operatorToken.kind >= ts.SyntaxKind.FirstAssignment &&
        node.operatorToken.kind <= ts.SyntaxKind.LastAssignment
      )
        write(node, node.left, 'assigned to');
      else if (
        (ts.isPrefixUnaryExpression(node) || ts.isPostfixUnaryExpression(node)) &&
        (node.operator === ts.SyntaxKind.PlusPlusToken || node.operator === ts.SyntaxKind.MinusMinusToken)
      )
        write(node, node.operand, 'incremented');
      else if (ts.isDeleteExpression(node)) write(node, node.expression, 'deleted from');
      else if (
        ts.isCallExpression(node) &&
        ts.isPropertyAccessExpression(node.expression) &&
        MUTATORS.has(node.expression.name.text)
      )
        // `x.set(…)` on the binding itself, or on a collection reached through it
        write(node, node.expression.expression, `changed by .${node.expression.name.text}()`);
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return found;
}

describe('packages/core', () => {
  it('keeps no module-level mutable state outside the service container', () => {
    const found = moduleState(SRC);
    expect(found.filter((f) => !ALLOWED.has(f.key)).map((f) => f.text)).toEqual([]);
    // an allowance that no longer matches anything goes from the list
    expect([...ALLOWED.keys()].filter((a) => !found.some((f) => f.key === a))).toEqual([]);
  }, 60_000); // parsing every source file: about a second here, more on a busy machine

  it('sees each kind (the check can fail)', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'plenum-module-state-'));
    try {
      mkdirSync(path.join(dir, 'b'));
      writeFileSync(
        path.join(dir, 'a.ts'),
        `export let n = 0;
        export const cache = new Map<string, number>();
        export const fixed: ReadonlySet<string> = new Set(['x']);
        export const list: number[] = [];
        export const text = new TextEncoder();
        export class C { static count = 0; static readonly max = 1; }`,
      );
      writeFileSync(
        path.join(dir, 'b', 'c.ts'),
        `import { list as l, fixed } from '../a';
        export function f() { l.push(1); fixed.has('x'); }
        export function g(l: number[]) { l.push(2); }
        export function h() { const l = [] as number[]; l.push(3); }`,
      );
      expect(moduleState(dir).map((f) => f.text)).toEqual([
        'a.ts n: a module-level let',
        'a.ts cache: a module-level new Map',
        'a.ts C.count: a static field that is not readonly',
        'b/c.ts:2 l: changed by .push()',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
