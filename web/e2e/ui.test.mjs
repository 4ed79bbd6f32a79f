// End-to-end test of the gamequiv web UI in a real browser.
//
// It starts the real server binary on 127.0.0.1 (a free port) with a
// temporary data directory, drives Debian's chromium through
// playwright-core, and checks what a researcher opens the pages for:
//   - ticTacToe against sum15 submitted through the form: the verdict,
//     game names, and both boards drawn with Tic-tac-toe's cells labelled
//     by a 3x3 magic square;
//   - the classes (searched by name), a class and a game: the initial
//     state on the board, the symmetries in cycle notation, drawn;
//   - the progress of a long job (a second server, built with the
//     gamequiv_e2e tag, holds every comparison in its verify phase): phase,
//     step, sub-progress and elapsed time, updated in place;
//   - every page at 390 px and 1280 px wide: no horizontal scrolling, and
//     no serious or critical axe-core accessibility violation;
//   - with access control (a third server, --auth, tokens made with the
//     gamequiv CLI): the sign-in page and back, the session cookie
//     (HttpOnly, SameSite=Strict), another member who may read but not
//     change, the owner renaming and deleting a game, signing out.
// Screenshots of every page at both widths go to $GAMEQUIV_E2E_ARTIFACTS.
//
// Run from the repository root, after `npm ci` in web/e2e:
//
//   node --test web/e2e/
//
// Environment:
//   GAMEQUIV_SERVER_BIN       the server binary; default: go build ./cmd/server
//   GAMEQUIV_HOLD_SERVER_BIN  a server built with -tags gamequiv_e2e; default:
//                             go build -tags gamequiv_e2e ./cmd/server
//   CHROMIUM                  the browser; default /usr/bin/chromium
//   GAMEQUIV_GAMES            the game corpus (ggp-base/, ggp-base-repo/);
//                             default: shared/games in an ancestor directory
//   GAMEQUIV_E2E_ARTIFACTS    if set, a directory for screenshots
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..');
const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

// The launch flags of ECOSYSTEM.md 8b: no sandbox (root in CI), no GPU,
// and no background connections (the network is closed).
const chromiumArgs = [
  '--headless', '--no-sandbox', '--disable-gpu', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

function findCorpus() {
  if (process.env.GAMEQUIV_GAMES) return process.env.GAMEQUIV_GAMES;
  for (let d = root; ; d = path.dirname(d)) {
    const c = path.join(d, 'shared', 'games');
    if (existsSync(path.join(c, 'ggp-base'))) return c;
    if (path.dirname(d) === d) return null;
  }
}

const corpus = findCorpus();
const chromiumPath = process.env.CHROMIUM || '/usr/bin/chromium';
const skip = !corpus ? 'game corpus not found (set GAMEQUIV_GAMES)'
  : !existsSync(chromiumPath) ? `no browser at ${chromiumPath} (apt-get install chromium, or set CHROMIUM)`
    : false;
if (skip) console.log(`SKIP web e2e: ${skip}`);

const tttPath = corpus && path.join(corpus, 'ggp-base-repo', 'ticTacToe.kif');
const sum15Path = corpus && path.join(corpus, 'ggp-base', 'sum15.kif');

// Widths every page is checked at: a phone and a laptop.
const widths = [390, 1280];

let tmp, browser;
const servers = [];
let base; // the main server
const ids = {}; // ids of what the tests created, for the page sweep

// startServer starts a server binary on a free port and resolves with its
// address, read from the "listening" log line.
function startServer(bin, dataDir, env = {}) {
  const srv = { log: '' };
  servers.push(srv);
  return new Promise((resolve, reject) => {
    srv.proc = spawn(bin, ['--addr', '127.0.0.1:0', '--data', dataDir, '--workers', '2', '--rate-limit', '0'], {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, GAMEQUIV_DATABASE_URL: '', ...env },
    });
    const timer = setTimeout(() => reject(new Error(`server did not start in 60s:\n${srv.log}`)), 60_000);
    let pending = '';
    srv.proc.stderr.setEncoding('utf8');
    srv.proc.stderr.on('data', (chunk) => {
      srv.log += chunk;
      pending += chunk;
      let nl;
      while ((nl = pending.indexOf('\n')) >= 0) {
        const line = pending.slice(0, nl);
        pending = pending.slice(nl + 1);
        try {
          const rec = JSON.parse(line);
          if (rec.msg === 'listening' && rec.addr) {
            clearTimeout(timer);
            resolve(`http://${rec.addr}`);
          }
        } catch { /* not a JSON line */ }
      }
    });
    srv.proc.on('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code ?? signal}) before listening:\n${srv.log}`));
    });
  });
}

async function stopServer(srv) {
  const p = srv.proc;
  if (!p || p.exitCode !== null) return;
  const exited = new Promise((r) => p.once('exit', r));
  p.kill('SIGTERM');
  let timer;
  await Promise.race([exited, new Promise((r) => { timer = setTimeout(r, 20_000); })]);
  clearTimeout(timer);
  if (p.exitCode === null) p.kill('SIGKILL');
}

function build(out, tags) {
  const args = ['build', '-o', out, ...(tags ? ['-tags', tags] : []), './cmd/server'];
  execFileSync('go', args, { cwd: root, stdio: 'inherit' });
  return out;
}

before(async () => {
  if (skip) return;
  tmp = mkdtempSync(path.join(tmpdir(), 'gamequiv-e2e-'));
  const bin = process.env.GAMEQUIV_SERVER_BIN || build(path.join(tmp, 'server'));
  base = await startServer(bin, path.join(tmp, 'data'));
  browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs, headless: true });
});

after(async () => {
  await browser?.close();
  for (const srv of servers) await stopServer(srv);
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

// newPage opens a page that records console errors and failed scripts
// (a Content-Security-Policy violation shows up there).
async function newPage(width = 1280) {
  const page = await browser.newPage({ viewport: { width, height: 900 } });
  page.problems = [];
  page.on('console', (m) => { if (m.type() === 'error') page.problems.push(`console: ${m.text()}`); });
  page.on('pageerror', (e) => page.problems.push(`page error: ${e.message}`));
  page.setDefaultTimeout(30_000);
  return page;
}

async function screenshot(page, name) {
  const dir = process.env.GAMEQUIV_E2E_ARTIFACTS;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: true });
}

// checkAccessible asserts a few basics: one h1, a language, and a label
// for every visible form control.
async function checkAccessible(page) {
  const facts = await page.evaluate(() => ({
    h1: document.querySelectorAll('h1').length,
    lang: document.documentElement.lang,
    unlabelled: [...document.querySelectorAll('input, select, textarea')]
      .filter((el) => el.type !== 'hidden' && el.labels.length === 0 && !el.getAttribute('aria-label'))
      .map((el) => el.name || el.id),
  }));
  assert.equal(facts.h1, 1, 'one h1 per page');
  assert.equal(facts.lang, 'en');
  assert.deepEqual(facts.unlabelled, [], 'form controls without a label');
}

// magicSquare asserts that nine numbers, row by row, form a 3x3 magic
// square of 1..9.
function assertMagicSquare(cells) {
  assert.equal(cells.length, 9, `nine cells, got ${cells}`);
  assert.deepEqual([...cells].sort(), ['1', '2', '3', '4', '5', '6', '7', '8', '9']);
  const n = cells.map(Number);
  for (const [a, b, c] of [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]]) {
    assert.equal(n[a] + n[b] + n[c], 15, `line ${a},${b},${c} of ${cells}`);
  }
}

test('submit ticTacToe against sum15 and see the mapping on the boards', { skip, timeout: 180_000 }, async () => {
  const page = await newPage();
  try {
    await page.goto(`${base}/`);
    await checkAccessible(page);
    await page.getByRole('navigation').getByRole('link', { name: 'Compare two games' }).click();
    await page.waitForURL(`${base}/comparisons/new`);
    await checkAccessible(page);

    // Game A pasted, game B uploaded as a file.
    await page.locator('#a-name').fill('ticTacToe');
    await page.locator('#a-gdl').fill(readFileSync(tttPath, 'utf8'));
    await page.locator('#b-file').setInputFiles(sum15Path);
    await page.getByRole('button', { name: 'Compare' }).click();
    await page.waitForURL(/\/comparisons\/\d+$/);
    ids.comparison = page.url().split('/').pop();
    await checkAccessible(page);
    // A marker that survives only if the page is updated in place.
    await page.evaluate(() => { window.e2eMarker = 'kept'; });

    await assert.doesNotReject(page.locator('#verdict').getByText('equivalent', { exact: true }).waitFor({ timeout: 120_000 }));
    assert.equal(await page.evaluate(() => window.e2eMarker), 'kept', 'the page was reloaded instead of updated by htmx');
    assert.match(await page.locator('.status').first().innerText(), /done/);
    assert.match(await page.locator('p.games').innerText(), /ticTacToe .*sum15/s);
    // Names link to the games.
    const gameLinks = page.locator('p.games a');
    assert.equal(await gameLinks.count(), 2);
    assert.match(await gameLinks.first().getAttribute('href'), /^\/games\/\d+$/);
    ids.ttt = (await gameLinks.first().getAttribute('href')).split('/').pop();
    ids.sum15 = (await gameLinks.nth(1).getAttribute('href')).split('/').pop();

    // The boards, side by side: 3x3 labelled by a magic square, and the
    // row of the numbers 1..9.
    const mapping = page.locator('#mapping');
    await mapping.waitFor();
    const a = mapping.locator('#board-a');
    const b = mapping.locator('#board-b');
    assertMagicSquare(await a.locator('.cell .label').allTextContents());
    assert.deepEqual(await b.locator('.cell .label').allTextContents(), ['1', '2', '3', '4', '5', '6', '7', '8', '9']);
    const [boxA, boxB] = [await a.boundingBox(), await b.boundingBox()];
    assert.ok(boxB.x > boxA.x + boxA.width - 1 || boxB.y > boxA.y + boxA.height - 1, 'boards overlap');
    assert.ok(Math.abs(boxA.y - boxB.y) < 2, 'at 1280 px the boards stand side by side');
    const contents = await mapping.locator('table.mapping').first().locator('tbody tr').allInnerTexts();
    assert.deepEqual(contents.map((r) => r.split('\t').map((s) => s.trim())).sort(),
      [['b', 'available'], ['o', 'black'], ['x', 'white']]);
    // The full tables are still there, folded.
    await mapping.getByText('Every role, action and proposition').click();
    assert.match(await mapping.innerText(), /29 propositions/);
    assert.match(await mapping.innerText(), /\(take \d\)/);
    await screenshot(page, 'comparison-1280');
    assert.deepEqual(page.problems, []);
  } finally {
    await page.close();
  }
});

test('search the classes, open a class and a game, see the symmetries drawn', { skip, timeout: 120_000 }, async () => {
  const page = await newPage();
  try {
    // The classifier merges the two games after the equivalent verdict,
    // in the background: wait for the class with both.
    const deadline = Date.now() + 60_000;
    let row;
    for (;;) {
      await page.goto(`${base}/classes`);
      await page.getByLabel(/Find the classes of games whose name contains/).fill('SUM1');
      await page.getByRole('search').getByRole('button', { name: 'Search' }).click();
      await page.waitForURL(/\/classes\?q=SUM1$/);
      row = page.locator('tbody tr').filter({ hasText: 'ticTacToe' }).filter({ hasText: 'sum15' });
      if (await row.count() === 1) break;
      assert.ok(Date.now() < deadline, `no class with both games:\n${await page.locator('main').innerText()}`);
      await page.waitForTimeout(500);
    }
    await checkAccessible(page);
    assert.equal((await row.locator('td.num').innerText()).trim(), '2');
    await page.goto(`${base}/classes?q=nothing-like-this`);
    assert.match(await page.locator('main').innerText(), /No class has a game whose name contains/);
    await page.goBack();

    await row.getByRole('link', { name: /^Class \d+$/ }).click();
    await page.waitForURL(/\/classes\/\d+$/);
    ids.class = page.url().split('/').pop();
    assert.match(await page.locator('main').innerText(), /2 games/);
    await page.getByRole('link', { name: 'ticTacToe' }).first().click();
    await page.waitForURL(/\/games\/\d+$/);
    await checkAccessible(page);
    const main = await page.locator('main').innerText();
    assert.match(main, /Roles\s+xplayer, oplayer/);
    assert.match(main, /Propositions\s+29/);
    // The initial state on the board: nine blank cells.
    assert.deepEqual(await page.locator('#board-initial .cell .label').allTextContents(), Array(9).fill('b'));

    // Symmetries, computed on demand and swapped in by htmx.
    await page.getByRole('link', { name: 'Compute the symmetries' }).click();
    const sym = page.locator('#symmetries');
    await sym.getByText('8 symmetries (the identity included)').waitFor({ timeout: 60_000 });
    const gens = sym.locator('ol.generators > li');
    assert.ok(await gens.count() >= 2, 'a dihedral group needs two generators');
    for (let i = 0; i < await gens.count(); i++) {
      const g = gens.nth(i);
      // Drawn: arrows on the moved cells, the centre never moves.
      assert.ok(await g.locator('.arrow').count() >= 4, `generator ${i + 1} draws its moves`);
      const cells = await g.locator('dt:text-is("Cells") + dd').innerText();
      assert.match(cells, /^\(.*\)$/s, `cycle notation: ${cells}`);
      assert.doesNotMatch(cells, /\b2,2\b/, 'the centre is fixed and not written');
      assert.equal(await g.locator('dt:text-is("Roles") + dd').innerText(), 'all stay');
    }
    await screenshot(page, 'game-1280');

    const res = await page.goto(`${base}/games/99999`);
    assert.equal(res.status(), 404);
    assert.equal(await page.locator('h1').innerText(), 'Not Found');
    assert.deepEqual(page.problems.filter((p) => !p.includes('404')), []);
  } finally {
    await page.close();
  }
});

test('the pickers of the compare form search the stored games', { skip, timeout: 60_000 }, async () => {
  const page = await newPage();
  try {
    // Without JavaScript: the search is a plain GET form.
    const ctx = await browser.newContext({ javaScriptEnabled: false });
    const plain = await ctx.newPage();
    await plain.goto(`${base}/comparisons/new`);
    await plain.locator('#b-q').fill('sum');
    await plain.locator('#b-q').press('Enter');
    await plain.waitForURL(/b_q=sum/);
    assert.deepEqual(await plain.locator('#b-id option').allTextContents(), ['none: use the description below', `sum15 (game ${ids.sum15})`]);
    await ctx.close();

    // With htmx: the list narrows as one types, without a reload.
    await page.goto(`${base}/comparisons/new`);
    await page.evaluate(() => { window.e2eMarker = 'kept'; });
    await page.locator('#a-q').fill('tac');
    await page.waitForFunction(() => document.querySelectorAll('#a-id option').length === 2);
    assert.match(await page.locator('#a-id option').nth(1).innerText(), /^ticTacToe \(game \d+\)$/);
    assert.equal(await page.evaluate(() => window.e2eMarker), 'kept');
    assert.deepEqual(page.problems, []);
  } finally {
    await page.close();
  }
});

test('a long comparison shows its phase, step, sub-progress and elapsed time', { skip, timeout: 180_000 }, async () => {
  // A server that holds every comparison in its verify phase.
  const bin = process.env.GAMEQUIV_HOLD_SERVER_BIN || build(path.join(tmp, 'server-hold'), 'gamequiv_e2e');
  const hold = await startServer(bin, path.join(tmp, 'data-hold'), { GAMEQUIV_E2E_HOLD_PHASE: 'verify' });
  const page = await newPage(390);
  try {
    await page.goto(`${hold}/comparisons/new`);
    await page.locator('#a-file').setInputFiles(tttPath);
    await page.locator('#b-file').setInputFiles(sum15Path);
    await page.getByRole('button', { name: 'Compare' }).click();
    await page.waitForURL(/\/comparisons\/\d+$/);
    await page.evaluate(() => { window.e2eMarker = 'kept'; });
    await page.locator('#phase').getByText('verify', { exact: true }).waitFor({ timeout: 120_000 });
    assert.match(await page.locator('#step').innerText(), /^verifying candidate mapping \d+$/);
    const sub = await page.locator('#sub-progress').innerText();
    assert.match(sub, /^\d+ of \d+ functions$/);
    const elapsed = async () => {
      const t = await page.locator('#elapsed').innerText();
      const m = t.match(/^(?:(\d+) min )?(\d+) (m?s)$/);
      assert.ok(m, `elapsed ${t}`);
      return m[3] === 'ms' ? 0 : Number(m[1] ?? 0) * 60 + Number(m[2]);
    };
    const first = await elapsed();
    await page.waitForTimeout(2500);
    assert.ok(await elapsed() >= first + 2, 'the elapsed time moves on');
    assert.equal(await page.evaluate(() => window.e2eMarker), 'kept', 'the page was reloaded instead of updated by htmx');
    // The API names the same phase, one of the OpenAPI document's.
    const id = page.url().split('/').pop();
    const api = await (await page.request.get(`${hold}/api/v1/comparisons/${id}`)).json();
    assert.equal(api.progress.phase, 'verify');
    await checkOverflow(page, 'progress');
    await screenshot(page, 'progress-390');
    await page.getByRole('button', { name: 'Cancel this comparison' }).click();
    await page.locator('.status').getByText('cancelled').waitFor({ timeout: 30_000 });
    assert.deepEqual(page.problems, []);
  } finally {
    await page.close();
  }
});

// checkOverflow asserts that the page does not scroll sideways.
async function checkOverflow(page, name) {
  const { scroll, width, wide } = await page.evaluate(() => {
    const w = document.documentElement.clientWidth;
    return {
      scroll: document.documentElement.scrollWidth,
      width: w,
      // What sticks out, to say what to fix.
      wide: [...document.querySelectorAll('body *')]
        .filter((el) => el.getBoundingClientRect().right > w + 1 && !el.closest('.table-wrap, pre'))
        .slice(0, 5).map((el) => `${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}.${el.className}`),
    };
  });
  assert.ok(scroll <= width, `${name}: the page is ${scroll} px wide in a ${width} px window; too wide: ${wide.join(', ')}`);
}

// checkAxe runs axe-core and asserts no serious or critical violation.
async function checkAxe(page, name) {
  await page.addScriptTag({ path: axePath });
  const violations = await page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) }));
  });
  const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(bad, [], `${name}: accessibility violations`);
}

test('every page fits 390 px and 1280 px and passes axe-core', { skip, timeout: 240_000 }, async () => {
  assert.ok(ids.comparison && ids.ttt && ids.class, 'the earlier tests created the data');
  const pages = {
    home: '/',
    games: '/games',
    'games-search': '/games?q=tic',
    game: `/games/${ids.ttt}`,
    'game-sum15': `/games/${ids.sum15}`,
    classes: '/classes',
    class: `/classes/${ids.class}`,
    comparisons: '/comparisons',
    'comparisons-of-game': `/comparisons?game=${ids.ttt}`,
    compare: `/comparisons/new?a=${ids.ttt}`,
    comparison: `/comparisons/${ids.comparison}`,
    'not-found': '/no/such/page',
  };
  for (const width of widths) {
    // axe-core is injected as a script, which the pages' policy forbids.
    const ctx = await browser.newContext({ viewport: { width, height: 900 }, bypassCSP: true });
    const page = await ctx.newPage();
    for (const [name, p] of Object.entries(pages)) {
      await page.goto(`${base}${p}`);
      // Open every folded section: its content must fit too.
      await page.evaluate(() => document.querySelectorAll('details').forEach((d) => { d.open = true; }));
      await checkOverflow(page, `${name} at ${width} px`);
      await screenshot(page, `${name}-${width}`);
      await checkAxe(page, `${name} at ${width} px`);
    }
    await ctx.close();
  }
});

test('with access control: sign in with a token, rename and delete a game, sign out', { skip, timeout: 240_000 }, async () => {
  const bin = process.env.GAMEQUIV_SERVER_BIN || path.join(tmp, 'server');
  const cli = path.join(tmp, 'gamequiv');
  execFileSync('go', ['build', '-o', cli, './cmd/gamequiv'], { cwd: root, stdio: 'inherit' });
  const data = path.join(tmp, 'data-auth');
  const authBase = await startServer(bin, data, { GAMEQUIV_AUTH: 'true' });
  const token = (name) => execFileSync(cli, ['token', 'create', '--name', name, '--data', data],
    { env: { ...process.env, GAMEQUIV_DATABASE_URL: '' }, stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim();
  const alice = token('alice');
  const bob = token('bob');
  const res = await fetch(`${authBase}/api/v1/games`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${alice}` },
    body: JSON.stringify({ name: 'ticTacToe', gdl: readFileSync(tttPath, 'utf8') }),
  });
  assert.equal(res.status, 201);
  const game = await res.json();
  assert.equal(game.owner, 'alice');

  for (const width of widths) {
    const ctx = await browser.newContext({ viewport: { width, height: 900 }, bypassCSP: true });
    const page = await ctx.newPage();
    page.setDefaultTimeout(30_000);
    // A page that needs a token leads to the sign-in page and back.
    await page.goto(`${authBase}/games/${game.id}`);
    await page.waitForURL(/\/login\?next=/);
    await checkAccessible(page);
    await checkOverflow(page, `login at ${width} px`);
    await screenshot(page, `login-${width}`);
    await checkAxe(page, `login at ${width} px`);
    await page.locator('#token').fill('gq_wrong');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('unknown or revoked').waitFor();
    await page.locator('#token').fill(width === widths[0] ? bob : alice);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${authBase}/games/${game.id}`);
    const cookie = (await ctx.cookies()).find((c) => c.name === 'gamequiv_session');
    assert.ok(cookie && cookie.httpOnly && cookie.sameSite === 'Strict', `session cookie ${JSON.stringify(cookie)}`);
    if (width === widths[0]) {
      // bob reads alice's game but may not change it.
      await page.getByText('Signed in as').waitFor();
      assert.equal(await page.getByRole('button', { name: 'Delete this game' }).count(), 0);
      await page.getByRole('button', { name: 'Sign out' }).click();
      // Reading needs a token on this server: the start page leads to sign-in.
      await page.waitForURL(/\/login\?next=%2F$/);
      await page.getByRole('link', { name: 'Sign in' }).waitFor();
      assert.equal((await ctx.cookies()).filter((c) => c.name === 'gamequiv_session').length, 0, 'cookie gone after sign-out');
      await ctx.close();
      continue;
    }
    // alice renames and deletes her game through the forms.
    await checkAccessible(page);
    await checkOverflow(page, `game with forms at ${width} px`);
    await screenshot(page, `game-owner-${width}`);
    await checkAxe(page, `game with forms at ${width} px`);
    await page.locator('#rename-name').fill('tic-tac-toe');
    await page.getByRole('button', { name: 'Rename' }).click();
    await page.getByRole('heading', { level: 1, name: 'tic-tac-toe' }).waitFor();
    await page.locator('#delete-confirm').check();
    await page.getByRole('button', { name: 'Delete this game' }).click();
    await page.waitForURL(`${authBase}/games`);
    const gone = await page.goto(`${authBase}/games/${game.id}`);
    assert.equal(gone.status(), 404);
    await ctx.close();
  }
});
