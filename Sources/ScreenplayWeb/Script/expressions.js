// Screenplay expressions (contract v6, contract/expressions/README.md) for the web player: the
// language, limits and errors of the client core's evaluator; both pass contract/expressions/cases.json.
//
//   const e = compile("len(tags) > n ? 'many' : 'few'", { tags: { array: "string" }, n: "int" });
//   e.type; e.variables; e.evaluate({ tags: ["a"], n: 2 }, "de-AT");
//
// compile() reads, parses and type-checks once: every syntax and type error is found there. Its
// evaluate() only runs the checked tree (a function per node) on the variables' values, as often
// as needed. Types are in the spec's JSON form ("int", {array: T}, {record: {f: T}}); ints and
// numbers are both JavaScript numbers, the types say which. Errors are ExpressionErrors.

// The largest int, and the most code points in a string an expression makes.
const MAX = 2 ** 53 - 1, LONGEST = 65536;

// kind: "syntax", "type" or "runtime"; code: the spec's name; message: what, and where (an offset
// in code points).
export class ExpressionError extends Error {
  constructor(kind, code, message) {
    super(message);
    Object.assign(this, { name: "ExpressionError", kind, code });
  }
}

// ---- Types ----
const numeric = (t) => t == "int" || t == "number";
const scalar = (t) => numeric(t) || t == "bool" || t == "string";
// A type as text, record fields sorted: two types are one when their texts are.
const key = (t) => t.array ? "[" + key(t.array) + "]"
  : t.record ? "{" + Object.keys(t.record).sort().map((f) => JSON.stringify(f) + ":" + key(t.record[f])) + "}" : t;
// The type of two values that stand for each other (a conditional's branches, an array's
// elements): the same type, or number for two numerics; null if none.
const join = (a, b) => key(a) == key(b) ? a : numeric(a) && numeric(b) ? "number" : null;

// ---- Text ----
// Code points: a UTF-16 surrogate pair counts once.
const points = (s) => {
  let n = 0;
  for (const _ of s) n++;
  return n;
};
const pad = (n) => String(n).padStart(2, "0");
// A string made, or stringTooLong (a code point is one or two UTF-16 units).
const long = (s, error) => s.length > LONGEST && (s.length > 2 * LONGEST || points(s) > LONGEST) ? error("stringTooLong") : s;

// Each language's row: group separator, decimal separator, short date (D, M: day and month; dd,
// mm: padded; Y: the year as 'iso' writes it). English's for any other language.
const LOCALES = {
  en: ",.M/D/Y", de: ".,D.M.Y", nl: ".,D-M-Y", es: ".,dd/mm/Y", it: ".,dd/mm/Y", pt: ".,dd/mm/Y", fr: "\u00a0,dd/mm/Y",
  ru: "\u00a0,dd.mm.Y", pl: "\u00a0,dd.mm.Y", uk: "\u00a0,dd.mm.Y", sv: "\u00a0,Y-mm-dd", ja: ",.Y/mm/dd", zh: ",.Y/mm/dd", ko: ",.Y/mm/dd",
};

// x rounded to d decimals on the digits String(x) writes (JavaScript's Number#toString is the
// spec's), in plain notation, halves away from zero; grouped by threes.
function formatNumber([x, d], [group, point], error) {
  if (d < 0 || d > 6) error("invalidArgument", "decimals " + d);
  const [mantissa, exponent = 0] = String(Math.abs(x)).split("e");
  // The digits, and how many stand before the point: at least one, and d + 1 after it.
  let digits = mantissa.replace(".", ""), before = (mantissa + ".").indexOf(".") + +exponent;
  if (before < 1) {
    digits = "0".repeat(1 - before) + digits;
    before = 1;
  }
  digits = digits.padEnd(before + d + 1, "0");
  let kept = digits.slice(0, before + d);
  if (digits[before + d] >= "5") kept = String(BigInt(kept) + 1n).padStart(kept.length, "0");
  const whole = kept.slice(0, kept.length - d).replace(/\B(?=(\d{3})+$)/g, group);
  return (x < 0 && /[1-9]/.test(kept) ? "-" : "") + whole + (d ? point + kept.slice(-d) : "");
}

// m:ss or h:mm:ss of the whole seconds in abs(s).
function formatDuration([s], row, error) {
  // (Quotients of whole numbers below 2^53 by 60 and 3600 floor exactly.)
  const w = Math.floor(Math.abs(s)), hours = Math.floor(w / 3600), minutes = Math.floor(w / 60) % 60;
  if (w > MAX) error("overflow");
  return (s <= -1 ? "-" : "") + (hours ? hours + ":" + pad(minutes) : minutes) + ":" + pad(w % 60);
}

// The UTC calendar date of t seconds since 1970 (Date's range, ±8.64e15 ms, is the spec's).
function formatDate([t, style], row, error) {
  const form = style == "iso" ? "Y-mm-dd" : style == "short" ? row.slice(2) : error("invalidArgument", "style " + style);
  if (!(Math.abs(t) <= 8.64e12)) error("invalidArgument", "date " + t);
  const date = new Date(Math.floor(t) * 1000), year = date.getUTCFullYear(), D = date.getUTCDate(), M = date.getUTCMonth() + 1;
  const parts = { Y: (year < 0 ? "-" : "") + String(Math.abs(year)).padStart(4, "0"), D, M, dd: pad(D), mm: pad(M) };
  return form.replace(/dd|mm|[DMY]/g, (part) => parts[part]);
}

// ---- Functions ----
// Each one's rule: given its arguments' types (as many as it declares), its result type and how
// it runs, run(argument values, locale row, error); or nothing when it does not take them.
const toInt = (round) => (x) => numeric(x) && ["int", ([v], row, error) => {
  const r = round(v) + 0;
  return Math.abs(r) > MAX ? error("overflow") : r;
}];
const FUNCTIONS = {
  len: (s) => s == "string" ? ["int", ([v]) => points(v)] : s.array && ["int", ([v]) => v.length],
  // A string in a string (well-formed UTF-16: unit matches are code point matches), or a value in
  // an array of its type (an int in an array of numbers).
  contains: (s, t) => (s == "string" ? t == "string" : scalar(s.array) && join(s.array, t) == s.array)
    && ["bool", ([within, sought]) => within.includes(sought)],
  lower: (s) => s == "string" && ["string", ([v], row, error) => long(v.toLowerCase(), error)],
  upper: (s) => s == "string" && ["string", ([v], row, error) => long(v.toUpperCase(), error)],
  // JavaScript's whitespace is the spec's list.
  trim: (s) => s == "string" && ["string", ([v]) => v.trim()],
  min: (a, b) => numeric(a) && numeric(b) && [join(a, b), (v) => Math.min(...v)],
  max: (a, b) => numeric(a) && numeric(b) && [join(a, b), (v) => Math.max(...v)],
  abs: (a) => numeric(a) && [a, ([v]) => Math.abs(v)],
  round: toInt((x) => x < 0 ? -Math.round(-x) : Math.round(x)),
  floor: toInt(Math.floor),
  ceil: toInt(Math.ceil),
  string: (a) => scalar(a) && ["string", ([v]) => String(v)],
  formatNumber: (x, d) => numeric(x) && d == "int" && ["string", formatNumber],
  formatDuration: (s) => numeric(s) && ["string", formatDuration],
  formatDate: (t, style) => numeric(t) && style == "string" && ["string", formatDate],
};

// Binary operators: how tightly each binds, and what it computes.
const BINARY = {
  "||": [1], "&&": [2], "==": [3, (a, b) => a === b], "!=": [3, (a, b) => a !== b],
  "<": [4, (a, b) => a < b], "<=": [4, (a, b) => a <= b], ">": [4, (a, b) => a > b], ">=": [4, (a, b) => a >= b],
  "+": [5, (a, b) => a + b], "-": [5, (a, b) => a - b], "*": [6, (a, b) => a * b], "/": [6, (a, b) => a / b], "%": [6, (a, b) => a % b],
};
const ESCAPES = { "\\": "\\", "'": "'", n: "\n", t: "\t", $: "$" };
// A token after spaces: an int or number (digits, fraction, exponent), a name, punctuation; none
// at the end or before another character.
const TOKEN = /[ \t\r\n]*((\d+)(\.\d+)?([eE][+-]?\d+)?|[A-Za-z_]\w*|[=!<>]=|&&|\|\||[-+*/%!<>()[\],.?:'}])?/y;

// The expression source, reading variables of the given types (name: type): its type, the names
// it reads, and evaluate(values, locale).
export function compile(source, types = {}) {
  const fail = (kind, code, at, what) => {
    throw new ExpressionError(kind, code, code + (what ? " (" + what + ")" : "") + " at " + points(source.slice(0, at)));
  };
  if (new TextEncoder().encode(source).length > 4096) fail("syntax", "tooLong", 0);

  // ---- Tokens: tok is the one at hand ({k: kind, i: offset, v: value}), pos where the next
  // begins. Kinds: the punctuation itself, int, number, bool, id, end, and ' (a string's opening
  // quote: the parser reads the rest). A } is a token only inside a string's ${…}.
  let tok, pos = 0, open = 0, level = 0;
  const next = () => {
    TOKEN.lastIndex = pos;
    const [, text, digits, fraction, exponent] = TOKEN.exec(source), i = TOKEN.lastIndex - (text || "").length;
    let k = text, v = text;
    if (i == source.length) k = "end";
    else if (!text || (text == "}" && !open)) {
      fail("syntax", "unexpectedCharacter", i, String.fromCodePoint(source.codePointAt(i)));
    } else if (digits) {
      v = +text;
      k = fraction || exponent ? "number" : "int";
      if (k == "int" ? v > MAX : v == Infinity) fail("syntax", k == "int" ? "integerTooLarge" : "numberTooLarge", i, text);
    } else if (/\w/.test(text)) {
      k = text == "true" || text == "false" ? "bool" : "id";
      if (k == "bool") v = text == "true";
    }
    pos = TOKEN.lastIndex;
    tok = { k, i, v };
  };
  const unexpected = () => tok.k == "end" ? fail("syntax", "unexpectedEnd", tok.i)
    : fail("syntax", "unexpectedToken", tok.i, source.slice(tok.i, pos));
  const eat = (k) => tok.k == k && (next(), true);
  const expect = (k) => eat(k) || unexpected();

  // ---- The tree: nodes {k: kind, i: offset, a: children (none for a leaf), v: value, d: depth}.
  // A leaf is one level; every node with children adds one (operators, calls, index, member
  // access, conditionals, groups, arrays, strings with ${…}). level counts those being read, so
  // that no source nests the parser deeper either.
  const node = (k, i, a, v) => {
    const d = a ? 1 + Math.max(0, ...a.map((n) => n.d)) : 1;
    if (d > 64) fail("syntax", "tooDeep", i);
    return { k, i, a, v, d };
  };
  const nest = (read) => {
    if (++level > 64) fail("syntax", "tooDeep", tok.i);
    const n = read();
    level--;
    return n;
  };
  const expression = () => nest(() => {
    const c = binary(1), i = tok.i;
    if (!eat("?")) return c;
    const a = expression();
    expect(":");
    return node("?", i, [c, a, expression()]);
  });
  // Operators binding at least as tightly as the given level, left to right.
  const binary = (min) => {
    let left = unary();
    for (let k, i; BINARY[k = tok.k]?.[0] >= min; ) {
      i = tok.i;
      next();
      left = node(k, i, [left, binary(BINARY[k][0] + 1)]);
    }
    return left;
  };
  const unary = () => {
    const { k, i } = tok;
    return eat("!") || eat("-") ? node(k, i, [nest(unary)]) : postfix();
  };
  const postfix = () => {
    let n = primary();
    for (let i = tok.i; ; i = tok.i) {
      if (eat(".")) {
        if (tok.k != "id") unexpected();
        n = node(".", i, [n], tok.v);
        next();
      } else if (eat("[")) {
        n = node("index", i, [n, expression()]);
        expect("]");
      } else return n;
    }
  };
  const list = (close) => {
    const a = [];
    if (!eat(close)) {
      do a.push(expression()); while (eat(","));
      expect(close);
    }
    return a;
  };
  const primary = () => {
    const { k, i, v } = tok;
    if (scalar(k)) return next(), node(k, i, null, v);
    if (k == "id") return next(), eat("(") ? node("call", i, list(")"), v) : node("variable", i, null, v);
    if (eat("(")) {
      const n = node("()", i, [expression()]);
      expect(")");
      return n;
    }
    if (eat("[")) return node("array", i, list("]"));
    if (k != "'") unexpected();
    // A string, its opening quote read: texts around ${…} holes, character by character.
    const texts = [], holes = [];
    let text = "";
    for (let c; (c = source[pos++]) != "'"; ) {
      if (c == undefined) fail("syntax", "unterminatedString", i);
      if (c == "\\") {
        c = ESCAPES[source[pos++]];
        if (c == undefined) fail("syntax", "badEscape", pos - 2);
        text += c;
      } else if (c == "$" && source[pos] == "{") {
        pos++;
        texts.push(text);
        text = "";
        open++;
        next();
        holes.push(expression());
        if (tok.k != "}") unexpected();
        open--;
      } else text += c;
    }
    texts.push(text);
    next();
    return holes.length ? node("interpolation", i, holes, texts) : node("string", i, null, text);
  };

  next();
  const tree = expression();
  if (tok.k != "end") unexpected();

  // ---- Checking: each node's type (t), and the function (f) that computes its value from the
  // variables' values (V) and the locale's row (L) being evaluated.
  const variables = new Set();
  let V, L;
  const check = (n) => {
    const { k, i, v } = n, a = n.a?.map(check) ?? [], [x, y, z] = a, tx = x?.t, ty = y?.t;
    const mismatch = () => fail("type", "typeMismatch", i, k + " of " + a.map((c) => key(c.t)));
    const error = (code, what) => fail("runtime", code, i, what);
    const op = BINARY[k]?.[1];
    if (scalar(k)) return { t: k, f: () => v };
    if (k == "variable") {
      if (!Object.hasOwn(types, v)) fail("type", "unknownVariable", i, v);
      variables.add(v);
      return { t: types[v], f: () => V[v] };
    }
    if (k == "()") return x;
    if (k == "!") return tx == "bool" ? { t: tx, f: () => !x.f() } : mismatch();
    if (k == "-" && !y) return numeric(tx) ? { t: tx, f: () => 0 - x.f() } : mismatch();
    if (k == "&&" || k == "||") {
      return tx == "bool" && ty == "bool" ? { t: tx, f: k == "&&" ? () => x.f() && y.f() : () => x.f() || y.f() } : mismatch();
    }
    if (k == "+" && tx == "string" && ty == "string") return { t: tx, f: () => long(x.f() + y.f(), error) };
    if (numeric(tx) && numeric(ty) && "+-*/%".includes(k)) {
      const int = tx == "int" && ty == "int";
      return { t: int ? tx : "number", f: () => {
        const l = x.f(), r = y.f();
        if ((k == "/" || k == "%") && r === 0) error("divisionByZero");
        // An int quotient is truncated (exact: both ints are below 2^53); + 0 makes -0 0.
        const result = int ? (k == "/" ? Math.trunc(l / r) : op(l, r)) + 0 : op(l, r);
        return (int ? Math.abs(result) > MAX : !isFinite(result)) ? error("overflow") : result;
      } };
    }
    if (numeric(tx) && numeric(ty) && op || (k == "==" || k == "!=") && tx == ty && (tx == "bool" || tx == "string")) {
      return { t: "bool", f: () => op(x.f(), y.f()) };
    }
    if (k == "?") {
      const t = tx == "bool" && join(ty, z.t);
      return t ? { t, f: () => x.f() ? y.f() : z.f() } : mismatch();
    }
    if (k == ".") {
      if (!tx.record) mismatch();
      if (!Object.hasOwn(tx.record, v)) fail("type", "noField", i, v);
      return { t: tx.record[v], f: () => x.f()[v] };
    }
    if (k == "index") {
      return tx.array && ty == "int" ? { t: tx.array, f: () => {
        const list = x.f(), j = y.f();
        return j < 0 || j >= list.length ? error("indexOutOfRange", j) : list[j];
      } } : mismatch();
    }
    if (k == "array") {
      if (!x) fail("type", "emptyArray", i);
      let t = tx;
      for (const e of a) if (!(t = join(t, e.t))) mismatch();
      return { t: { array: t }, f: () => a.map((e) => e.f()) };
    }
    if (k == "interpolation") {
      if (!a.every((hole) => scalar(hole.t))) mismatch();
      return { t: "string", f: () => long(a.reduce((text, hole, j) => text + hole.f() + v[j + 1], v[0]), error) };
    }
    if (k != "call") mismatch();
    if (!Object.hasOwn(FUNCTIONS, v)) fail("type", "unknownFunction", i, v);
    const rule = FUNCTIONS[v], ts = a.map((c) => c.t);
    const [t, run] = (ts.length == rule.length && rule(...ts)) || fail("type", "wrongArguments", i, v + "(" + ts.map(key) + ")");
    return { t, f: () => run(a.map((c) => c.f()), L, error) };
  };
  const { t, f } = check(tree);
  return {
    type: t,
    variables,
    evaluate(values, locale) {
      V = values;
      // The language: before the first - or _, lowercased.
      const language = String(locale || "en").split(/[-_]/)[0].toLowerCase();
      L = LOCALES[Object.hasOwn(LOCALES, language) ? language : "en"];
      return f();
    },
  };
}
