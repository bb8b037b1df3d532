// Stand-in for the Tauri shell, injected into the page ONLY by the browser tests (never shipped).
// It records every invoke() and plays the engine's part with scripted GameViews: it appends
// moves and flips the side to move, nothing more. Anything rule-like (forbidden points, a win)
// comes from the test through `__fake.next`, merged into the next view it hands out.
(() => {
  const cfg = window.__FAKE_CONFIG__ ?? {};
  const settings = {
    mode: 'computer', humanColor: 'black', level: 3, rule: 'freestyle', size: 15, confirmMove: 'off',
    moveNumbers: false, sound: false, vibration: true, language: 'en', theme: 'system',
    ...cfg.settings,
  };
  const stats = cfg.stats ?? { levels: [1, 2, 3, 4, 5].map((level) => ({ level, wins: 0, losses: 0, draws: 0 })) };
  const clone = (x) => JSON.parse(JSON.stringify(x));
  // A set-up position (issue 10 §5): its stones come before the moves, and move 1 is played by
  // its side to move.
  let setup = cfg.setup ?? null;
  const colorAt = (n) => {
    const first = setup?.toMove ?? 'black';
    return n % 2 ? (first === 'black' ? 'white' : 'black') : first;
  };

  let gameId = 1;
  let options = { mode: settings.mode, rule: settings.rule, size: settings.size, level: settings.level, humanColor: settings.humanColor, openingRule: settings.openingRule };
  let redo = [];

  // Swap / Swap2 (issue 10 §3): a small copy of the shell's opening phase, so the UI's taps
  // and choice buttons can be driven through it. `swap` is null without an opening rule.
  let swap = null;
  const ACTOR = { placeThree: 'opener', chooseAfterThree: 'chooser', placeTwo: 'chooser', chooseColour: 'opener' };
  function swapStart() {
    const rule = options.rule !== 'renju' ? options.openingRule : null;
    swap = rule === 'swap' || rule === 'swap2'
      ? { rule, stage: 'placeThree', human: options.humanColor === 'black' ? 'opener' : 'chooser', black: null, stones: 0 }
      : null;
  }
  function swapChoices() {
    if (swap?.stage === 'chooseAfterThree') return swap.rule === 'swap2' ? ['black', 'white', 'placeTwo'] : ['black', 'white'];
    return swap?.stage === 'chooseColour' ? ['black', 'white'] : [];
  }
  function swapView() {
    if (!swap) return null;
    const actor = ACTOR[swap.stage] ?? null;
    const local = options.mode !== 'computer';
    return {
      rule: swap.rule, stage: swap.stage, actor, you: local ? null : swap.human,
      youAct: !!actor && (local || actor === swap.human), choices: swapChoices(), black: swap.black, stones: swap.stones,
    };
  }
  /** Applies a choice of the actor; '' or the error code. */
  function swapChoose(choice, moves) {
    if (!swapChoices().length) return 'noChoiceDue';
    if (!swapChoices().includes(choice)) return 'badArgument';
    const actor = ACTOR[swap.stage];
    if (choice === 'placeTwo') {
      swap.stage = 'placeTwo';
      return '';
    }
    swap.black = choice === 'black' ? actor : actor === 'opener' ? 'chooser' : 'opener';
    swap.stage = 'done';
    swap.stones = moves;
    if (options.mode === 'computer') options.humanColor = swap.black === swap.human ? 'black' : 'white';
    return '';
  }
  function swapPlaced(moves) {
    if (swap?.stage === 'placeThree' && moves >= 3) swap.stage = 'chooseAfterThree';
    if (swap?.stage === 'placeTwo' && moves >= 5) swap.stage = 'chooseColour';
  }
  // Game clock (issue 10 §4): only with `cfg.clock` (fields of a ClockView) do views carry one;
  // it runs from the first stone unless paused, and every move took `clockMoveMs`.
  let clockPaused = false;
  function clockOf(moves) {
    if (!cfg.clock) return {};
    const moveMs = moves.map(() => cfg.clockMoveMs ?? 1000);
    return { clock: { running: (moves.length > 0 || !!setup) && !clockPaused, blackMs: 0, whiteMs: 0, blackLeftMs: null, whiteLeftMs: null, totalMs: 0, limit: null, moveMs, flag: null, ...cfg.clock } };
  }

  function makeView(moves, extra = {}) {
    const toMove = colorAt(moves.length);
    const sv = swapView();
    const inPhase = !!sv && sv.stage !== 'done';
    return {
      ...clockOf(moves),
      gameId, moveNumber: moves.length, size: options.size, rule: options.rule, mode: options.mode,
      level: options.level, humanColor: options.humanColor, moves: [...moves], toMove, result: null,
      forbidden: [], canUndo: moves.length > (swap ? swap.stones : 0) && !(inPhase && sv.choices.length), canRedo: redo.length > 0,
      computerToMove: options.mode === 'computer' && (inPhase ? !sv.youAct : toMove !== options.humanColor),
      swap: sv,
      setup: setup ? clone(setup) : null,
      ...extra,
    };
  }

  if (!cfg.moves?.length && !setup) swapStart();
  let view = makeView(cfg.moves ?? [], cfg.view ?? {});

  const fake = {
    calls: [],
    next: [], // extra fields merged into the next views handed out, in order
    computerMoves: [...(cfg.computerMoves ?? ['i9', 'g7', 'j10', 'f6', 'k11'])],
    swapComputer: [...(cfg.swapComputer ?? [])], // the computer's opening choices, in order
    hold: !!cfg.hold, // keep computer_move replies until release()
    held: [],
    hintPoint: cfg.hintPoint ?? 'h8',
    hintVerdict: cfg.hintVerdict,
    failures: [...(cfg.failures ?? [])], // [{ cmd, code, ...fields }]: the next such call fails with code (and fields)
    // Analysis (issue 10): start_analysis answers a generation and sends one round on the
    // channel after `analysisDelay` ms, with made-up lines for the position asked (no engine
    // runs in Chromium); a test can send any round itself with sendAnalysis().
    analysisDelay: cfg.analysisDelay ?? 30,
    generation: 0,
    channel: null,
    stopped: 0,
    reviews: 0,
    reviewDelay: cfg.reviewDelay ?? 15,
    flag: cfg.flag ?? null,
    sendAnalysis(over = {}) { fake.channel?.onmessage?.(clone({ ...analysisRound(), ...over })); },
    get view() { return clone(view); },
    release() { const r = fake.held.shift(); if (r) r(); return !!r; },
    count(cmd) { return fake.calls.filter((c) => c.cmd === cmd).length; },
  };
  window.__fake = fake;

  // Real IPC answers in a later task, never in the same microtask checkpoint; `latency` (ms)
  // stretches that, so a test can tell an optimistic drawing from a drawn reply.
  const latency = cfg.latency ?? 0;
  const later = (settle) => new Promise((resolve, reject) => setTimeout(() => settle(resolve, reject), latency));
  const fail = (code, message = code, extra = {}) => later((_, reject) => reject({ code, message, ...extra }));
  const ok = (value) => later((resolve) => resolve(value));
  const stale = (args) => args.gameId !== view.gameId || args.moveNumber !== view.moveNumber;

  const verdictOf = (score) => (Math.abs(score) < 120 ? { kind: 'even', color: null, plies: null, byFours: false } : { kind: 'better', color: score > 0 ? 'black' : 'white', plies: null, byFours: false });
  let analysed = { gameId: 0, moveNumber: 0 };
  function analysisRound() {
    const n = analysed.moveNumber;
    const toMove = colorAt(n);
    const taken = new Set(view.moves.slice(0, n));
    const free = ['h8', 'i9', 'g7', 'j10', 'g9', 'i7', 'h10', 'f8'].filter((p) => !taken.has(p));
    // Black's score moves with the position so a test can tell two rounds apart.
    const blackScore = 40 + 35 * n;
    const lines = free.slice(0, 3).map((point, k) => {
      const b = blackScore - 30 * k;
      const score = toMove === 'black' ? b : -b;
      return { point, score, blackScore: b, win: 1 / (1 + Math.exp(-score / 200)), depth: 6, verdict: verdictOf(b), pv: free.slice(k, k + 3) };
    });
    return {
      generation: fake.generation, gameId: analysed.gameId, moveNumber: n, toMove, round: 1, done: false, depth: 6,
      nodes: 42000, nps: 280000, elapsedMs: 150, blackScore, blackWin: 1 / (1 + Math.exp(-blackScore / 200)), lines,
    };
  }

  class Channel {
    constructor() { this.onmessage = null; }
  }

  function invoke(cmd, args) {
    fake.calls.push({ cmd, args: args === undefined ? null : clone(args), t: performance.now() });
    const failure = fake.failures.findIndex((f) => f.cmd === cmd);
    if (failure >= 0) {
      const { cmd: _, code, message, ...extra } = fake.failures.splice(failure, 1)[0];
      return fail(code, message ?? code, extra);
    }
    switch (cmd) {
      case 'get_state':
        return ok(clone({ game: view, settings, stats, notices: cfg.notices ?? [], renjuOpenings: (cfg.renjuOpenings ?? []).map(({ moves, ...o }) => o) }));
      case 'get_settings':
        return ok(clone(settings));
      case 'set_settings':
        Object.assign(settings, args.settings);
        return ok(clone(settings));
      case 'get_stats':
        return ok(clone(stats));
      case 'check_setup':
        return ok(null);
      case 'start_setup': {
        const { black, white, toMove, rule, size } = args.setup;
        gameId++;
        redo = [];
        options = { ...options, rule, size, mode: args.players.mode };
        if (args.players.humanColor) options.humanColor = args.players.humanColor;
        if (args.players.level) options.level = args.players.level;
        setup = black.length || white.length || toMove !== 'black' ? { black: [...black], white: [...white], toMove } : null;
        swap = null; // an edited position starts without a Swap / Swap2 phase
        view = makeView([]);
        return ok(clone(view));
      }
      case 'new_game':
        gameId++;
        redo = [];
        setup = null;
        options = { ...args.options };
        {
          // A named renju opening starts with the moves the test scripted for it in
          // `renjuOpenings`; the shell's choice of a random one is not played here.
          swapStart();
          const o = options.rule === 'renju' && (cfg.renjuOpenings ?? []).find((x) => x.code === options.renjuOpening);
          view = o ? makeView(o.moves, { canUndo: false, opening: { code: o.code, name: o.name, chinese: o.chinese } }) : makeView([]);
        }
        return ok(clone(view));
      case 'play': {
        if (stale(args)) return fail('stale');
        if (view.result) return fail('gameOver');
        if (view.moves.includes(args.point)) return fail('occupied', `${args.point} is occupied`);
        const f = view.forbidden.find((x) => x.point === args.point);
        if (f) return fail('forbidden', `${f.point} is forbidden for black (${f.reason})`, { point: f.point, reason: f.reason });
        if (view.swap?.choices.length) return fail('choiceDue');
        redo = [];
        swapPlaced(view.moves.length + 1);
        view = makeView([...view.moves, args.point], fake.next.shift());
        return ok(clone(view));
      }
      case 'choose_opening': {
        if (stale(args)) return fail('stale');
        if (swap && !view.swap.youAct) return fail('notYourTurn');
        const refused = swap ? swapChoose(args.choice, view.moves.length) : 'noChoiceDue';
        if (refused) return fail(refused);
        view = makeView(view.moves);
        return ok(clone(view));
      }
      case 'computer_move': {
        if (stale(args)) return fail('stale');
        if (view.swap && view.swap.stage !== 'done') {
          // The computer's role in the opening: three stones, or `swapComputer` ({ choice, stones }).
          let moves = [...view.moves];
          if (swap.stage === 'placeThree') moves.push(...(cfg.swapProposal ?? ['h8', 'h9', 'i9']).slice(moves.length));
          else {
            const act = fake.swapComputer.shift() ?? { choice: 'black', stones: [] };
            swapChoose(act.choice, moves.length);
            moves.push(...act.stones);
          }
          swapPlaced(moves.length);
          view = makeView(moves);
          return cfg.computerLatency ? new Promise((resolve) => setTimeout(() => resolve(clone(view)), cfg.computerLatency)) : ok(clone(view));
        }
        const reply = makeView([...view.moves, fake.computerMoves.shift() ?? 'a1'], fake.next.shift());
        if (!fake.hold) {
          view = reply;
          // `computerLatency` (ms): the computer "thinks" this long, its move already made here.
          if (cfg.computerLatency) return new Promise((resolve) => setTimeout(() => resolve(clone(reply)), cfg.computerLatency));
          return ok(clone(view));
        }
        // A held reply is computed now and delivered later, whatever happened meanwhile: exactly
        // the late answer the UI must recognise as stale.
        return new Promise((resolve) => fake.held.push(() => resolve(clone(reply))));
      }
      case 'start_analysis': {
        if (args.gameId !== view.gameId || args.moveNumber > view.moves.length) return fail('stale');
        fake.generation++;
        fake.channel = args.onUpdate;
        analysed = { gameId: args.gameId, moveNumber: args.moveNumber };
        const generation = fake.generation;
        setTimeout(() => { if (generation === fake.generation) fake.sendAnalysis(); }, fake.analysisDelay);
        return ok(generation);
      }
      case 'start_review': {
        // Made-up classes (every 4th move a mistake, the 5th a blunder with a better move),
        // progress after each "position" every `reviewDelay` ms.
        if (args.gameId !== view.gameId || args.moveNumber !== view.moves.length) return fail('stale');
        if (!view.moves.length) return fail('badArgument');
        const serial = ++fake.reviews;
        const total = view.moves.length + 1;
        const classes = ['best', 'good', 'inaccuracy', 'mistake', 'blunder'];
        return new Promise((resolve, reject) => {
          let done = 0;
          const step = () => {
            if (serial !== fake.reviews) return reject({ code: 'cancelled', message: 'cancelled' });
            done++;
            args.onProgress?.onmessage?.({ gameId: view.gameId, done, total });
            if (done < total) return setTimeout(step, fake.reviewDelay);
            const moves = view.moves.map((point, i) => ({
              ply: i + 1, point, color: colorAt(i), class: classes[i % 5], best: i % 5 === 4 ? 'a15' : point,
              scoreBefore: 0, scoreAfter: 0,
            }));
            const blackChances = Array.from({ length: total }, (_, k) => Math.round(500 + 400 * Math.sin(k / 2)));
            view = { ...view, review: { msPerPosition: 300, moves, blackChances } };
            resolve(clone(view));
          };
          setTimeout(step, fake.reviewDelay);
        });
      }
      case 'cancel_review':
        fake.reviews++;
        return ok(null);
      case 'stop_analysis':
        fake.stopped++;
        fake.generation++;
        return ok(null);
      case 'set_clock_paused':
        clockPaused = !!args.paused;
        if (view.clock) view = { ...view, clock: { ...view.clock, running: !clockPaused && !view.result && (view.moves.length > 0 || !!view.setup) } };
        return ok(clone(view));
      case 'check_clock':
        // `fake.flag`: what the shell would answer once the side to move's time is spent.
        if (fake.flag) view = { ...view, ...fake.flag, clock: { ...view.clock, ...fake.flag.clock } };
        return ok(clone(view));
      case 'cancel_search':
      case 'save_now':
      case 'haptic_tick':
        return ok(null);
      case 'undo': {
        if (!view.moves.length) return fail('badArgument');
        const moves = [...view.moves];
        const back = options.mode === 'computer' && moves.length >= 2 && !view.computerToMove ? 2 : 1;
        for (let i = 0; i < back; i++) redo.unshift(moves.pop());
        view = makeView(moves);
        return ok(clone(view));
      }
      case 'redo': {
        if (!redo.length) return fail('badArgument');
        const moves = [...view.moves, redo.shift()];
        view = makeView(moves);
        return ok(clone(view));
      }
      case 'hint':
        if (stale(args)) return fail('stale');
        return ok({ point: fake.hintPoint, verdict: fake.hintVerdict ?? { kind: 'even', color: null, plies: null, byFours: false }, score: 0, gameId: view.gameId, moveNumber: view.moveNumber });
      case 'export_record':
        if (setup && args.format !== 'sgf') return fail('needsSgf');
        return ok(args.format === 'sgf' ? `(;GM[4]SZ[${view.size}]${setup ? `PL[${setup.toMove === 'white' ? 'W' : 'B'}]` : ''})` : view.moves.join(' '));
      case 'import_record': {
        gameId++;
        redo = [];
        setup = null;
        view = makeView(String(args.text).trim().split(/\s+/), fake.next.shift());
        return ok(clone(view));
      }
      default:
        return fail('badArgument', `unknown command ${cmd}`);
    }
  }

  window.__TAURI__ = { core: { invoke, Channel } };
})();
