// English and 简体中文. The language follows the system unless the player picks one.
// Static text in index.html carries `data-i18n="key"` (text) or `data-i18n-label="key"` (aria-label).

const en = {
  appName: 'Wuzi',
  appTitle: 'Wuzi',
  board: 'Board',
  toolbarLabel: 'Game controls',
  undo: 'Undo', redo: 'Redo', hint: 'Hint', newGame: 'New game', settings: 'Settings',
  place: 'Place', close: 'Close', done: 'Done',
  yourMove: 'Your move',
  tapAgain: 'Tap again to place',
  toMove: '{color} to move',
  thinking: 'Thinking…',
  hinting: 'Looking for the best move…',
  computersMove: 'Computer to move — tap the board',
  wins: '{color} wins — {reason}',
  reasonFive: 'five in a row',
  reasonOverline: 'overline',
  draw: 'Draw — the board is full',
  drawNoMove: 'Draw — black has no legal move',
  forbiddenMove: 'Forbidden: {reason}',
  'double-three': 'double-three', 'double-four': 'double-four', overline: 'overline',
  black: 'Black', white: 'White',
  blackLower: 'black', whiteLower: 'white',
  played: '{color} {point}',
  hintText: 'Hint: {point} — {verdict}',
  hintNone: 'No move to suggest — {verdict}',
  verdict_black: 'black', verdict_white: 'white',
  verdict_won: '{color} has won',
  verdict_winsVcf: '{color} wins by VCF in {plies}',
  verdict_wins: '{color} wins in {plies}',
  verdict_even: 'even',
  verdict_better: '{color} is better',
  verdict_winning: '{color} is winning',
  notice_gameDamaged: 'Your saved game was damaged; a new game was started.',
  notice_settingsDamaged: 'Your settings could not be read and were reset.',
  notice_statsDamaged: 'Your statistics could not be read and were reset.',
  notice_notSaved: 'Your games cannot be saved on this device (the app’s data folder is not available): you can play, but nothing is kept when the app closes.',
  pressBackAgain: 'Press back again to leave',
  newGameAgain: 'Tap New game again to abandon this game',
  newGameStarted: 'New game',
  cellEmpty: '{point}, empty',
  cellStone: '{point}, {color}',
  cellForbidden: '{point}, forbidden for black',
  meta: '{rule} · {size}×{size}',
  metaComputer: '{rule} · {size}×{size} · {level}',
  rule_freestyle: 'Freestyle', rule_standard: 'Standard', rule_renju: 'Renju',
  renjuOpening: 'Opening',
  openingFree: 'Free start (empty board)',
  openingRandom: 'Random canonical opening',
  openingName: '{name} {chinese} ({code})',
  metaOpening: '{meta} · {opening}',
  level1: 'Beginner', level2: 'Easy', level3: 'Medium', level4: 'Hard', level5: 'Master',
  // errors by code
  err_offBoard: 'That point is off the board',
  err_occupied: 'That point is taken',
  err_forbidden: 'Forbidden move',
  err_gameOver: 'The game is over',
  err_notYourTurn: 'Not your turn',
  err_badRecord: 'That record could not be read',
  err_badArgument: 'Something went wrong',
  err_io: 'Could not reach the game engine',
  err_busy: 'Busy — try again',
  // settings sheet
  sectionGame: 'Game', sectionBoard: 'Board', sectionFeel: 'Feel', sectionStats: 'Statistics',
  sectionRecord: 'Game record',
  mode: 'Opponent', modeComputer: 'Computer', modeLocal: 'Two players',
  yourColour: 'You play', level: 'Level', rule: 'Rules', size: 'Board size',
  confirm: 'Confirm before placing', confirmAuto: 'Touch only', confirmOn: 'Always', confirmOff: 'Never',
  moveNumbers: 'Move numbers', sound: 'Sound', vibration: 'Vibration',
  language: 'Language', languageSystem: 'System', theme: 'Theme', themeSystem: 'System',
  themeLight: 'Light', themeDark: 'Dark',
  appliesNext: 'These apply to the next game.',
  startWithThese: 'Start a new game',
  howToPlay: 'How to play',
  statsLevel: 'Level', statsWins: 'Won', statsLosses: 'Lost', statsDraws: 'Drawn',
  statsNone: 'No finished games against the computer yet.',
  copyMoves: 'Copy moves', copySgf: 'Copy SGF', importRecord: 'Load record',
  recordPlaceholder: 'Paste moves (h8 i9 g7 …) or SGF here',
  copied: 'Copied', loaded: 'Game loaded',
  // game over
  youWin: 'You win!', youLose: 'You lose', blackWins: 'Black wins', whiteWins: 'White wins', drawTitle: 'Draw',
  byFive: 'Five in a row', byOverline: 'Six or more in a row', byDraw: 'The board is full', byNoMove: 'Every empty point is forbidden for black',
  playAgain: 'Play again',
  levelRecord: '{level}: {wins} won · {losses} lost · {draws} drawn',
  // help
  helpIntro: 'Black and White take turns placing one stone on an empty point. Black plays first.',
  help_freestyle: 'Freestyle: the first to get five or more stones in an unbroken row — across, down or diagonally — wins.',
  help_standard: 'Standard: exactly five in a row wins. Six or more (an overline) does not count, and the game goes on.',
  help_renju: 'Renju: to balance Black’s first-move advantage, Black may not play a move that makes a double-three, a double-four or an overline (six or more) — unless the same move makes five. Those points are marked ✕ when it is Black’s turn. White may play anywhere and wins with five or more.',
  helpTerms: 'A four is a line where one more stone makes five. An open three is a line where one more stone makes an open four (four with both ends free), which cannot be stopped.',
  helpInput: 'Tap an intersection to place a stone. With “Confirm before placing” on, the first tap shows where your stone would go; tap it again (or Place) to play it. On a keyboard, arrow keys move the cursor, Enter places, Ctrl+Z undoes.',
  helpDraw: 'If the board fills up with no winner, or under renju black has no legal point left, the game is a draw.',
  leaveTitle: 'Leave Wuzi?',
  metaSetup: '{meta} · set-up position',
  // analysis and review (issue 10)
  analysis: 'Analysis',
  evalLabel: 'Black’s winning chances',
  analysisStarting: 'Analysing…',
  analysisPaused: 'Paused while the computer thinks',
  analysisInfo: 'depth {depth} · {nps} nodes/s',
  analysisDone: 'depth {depth} · {nps} nodes/s · done',
  analysisOver: 'The game is over here',
  candidate: '{point} {score}',
  statsAnalysed: 'Analysed',
  review: 'Review',
  reviewFirst: 'First move', reviewPrev: 'Previous move', reviewNext: 'Next move', reviewLast: 'Last move',
  reviewSlider: 'Move shown',
  reviewing: 'Reviewing… {done} / {total}',
  reviewProgress: '{done} / {total}',
  reviewCancel: 'Stop review',
  reviewRun: 'Review the game',
  reviewClose: 'Back to the game',
  reviewPly: 'Move {ply} of {total}',
  reviewStartPos: 'Start of the game · {total} moves',
  class_best: 'best', class_good: 'good', class_inaccuracy: 'inaccuracy', class_mistake: 'mistake',
  class_blunder: 'blunder', 'class_missed-win': 'missed win',
  reviewMove: '{ply}. {color} {point} — {class}',
  reviewBetter: 'better: {point}',
  graphLabel: 'Evaluation over the game',
  graphPoint: 'Move {ply}: {class}',
};

const zh = {
  appName: '五子',
  appTitle: '五子棋',
  board: '棋盘',
  toolbarLabel: '对局操作',
  undo: '悔棋', redo: '重做', hint: '提示', newGame: '新局', settings: '设置',
  place: '落子', close: '关闭', done: '完成',
  yourMove: '轮到你了',
  tapAgain: '再点一次落子',
  toMove: '{color}走',
  thinking: '思考中…',
  hinting: '正在寻找最佳着法…',
  computersMove: '轮到电脑 — 轻点棋盘继续',
  wins: '{color}胜 — {reason}',
  reasonFive: '五子连珠',
  reasonOverline: '长连',
  draw: '和棋 — 棋盘已满',
  drawNoMove: '和棋 — 黑方无处可下',
  forbiddenMove: '禁手：{reason}',
  'double-three': '三三', 'double-four': '四四', overline: '长连',
  black: '黑方', white: '白方',
  blackLower: '黑棋', whiteLower: '白棋',
  played: '{color} {point}',
  hintText: '提示：{point} — {verdict}',
  hintNone: '没有可建议的着法 — {verdict}',
  verdict_black: '黑方', verdict_white: '白方',
  verdict_won: '{color}已胜',
  verdict_winsVcf: '{color}连续冲四 {plies} 手胜',
  verdict_wins: '{color} {plies} 手胜',
  verdict_even: '均势',
  verdict_better: '{color}稍优',
  verdict_winning: '{color}占优',
  notice_gameDamaged: '存档的对局已损坏，已开始新局。',
  notice_settingsDamaged: '设置无法读取，已恢复默认。',
  notice_statsDamaged: '统计数据无法读取，已重置。',
  notice_notSaved: '此设备无法保存对局（应用数据文件夹不可用）：可以下棋，但关闭应用后不会保留。',
  pressBackAgain: '再按一次返回键退出',
  newGameAgain: '再点一次“新局”放弃本局',
  newGameStarted: '新局开始',
  cellEmpty: '{point}，空',
  cellStone: '{point}，{color}',
  cellForbidden: '{point}，黑棋禁手',
  meta: '{rule} · {size}×{size}',
  metaComputer: '{rule} · {size}×{size} · {level}',
  rule_freestyle: '自由规则', rule_standard: '标准规则', rule_renju: '连珠规则',
  renjuOpening: '开局',
  openingFree: '自由开局（空棋盘）',
  openingRandom: '随机选一个标准开局',
  openingName: '{chinese} {name}（{code}）',
  metaOpening: '{meta} · {opening}',
  level1: '入门', level2: '简单', level3: '中等', level4: '困难', level5: '大师',
  err_offBoard: '该点不在棋盘上',
  err_occupied: '该点已有棋子',
  err_forbidden: '禁手',
  err_gameOver: '对局已结束',
  err_notYourTurn: '还没轮到你',
  err_badRecord: '无法读取该棋谱',
  err_badArgument: '出错了',
  err_io: '无法连接到对弈引擎',
  err_busy: '正忙，请重试',
  sectionGame: '对局', sectionBoard: '棋盘', sectionFeel: '体验', sectionStats: '战绩',
  sectionRecord: '棋谱',
  mode: '对手', modeComputer: '电脑', modeLocal: '双人同机',
  yourColour: '你执', level: '难度', rule: '规则', size: '棋盘大小',
  confirm: '落子前确认', confirmAuto: '仅触屏', confirmOn: '总是', confirmOff: '从不',
  moveNumbers: '显示手数', sound: '音效', vibration: '振动',
  language: '语言', languageSystem: '跟随系统', theme: '外观', themeSystem: '跟随系统',
  themeLight: '浅色', themeDark: '深色',
  appliesNext: '这些设置将在下一局生效。',
  startWithThese: '开始新局',
  howToPlay: '玩法说明',
  statsLevel: '难度', statsWins: '胜', statsLosses: '负', statsDraws: '和',
  statsNone: '还没有与电脑下完的对局。',
  copyMoves: '复制着法', copySgf: '复制 SGF', importRecord: '载入棋谱',
  recordPlaceholder: '在此粘贴着法（h8 i9 g7 …）或 SGF',
  copied: '已复制', loaded: '棋谱已载入',
  youWin: '你赢了！', youLose: '你输了', blackWins: '黑方胜', whiteWins: '白方胜', drawTitle: '和棋',
  byFive: '五子连珠', byOverline: '六子或以上连珠', byDraw: '棋盘已满', byNoMove: '所有空点都是黑方禁手',
  playAgain: '再来一局',
  levelRecord: '{level}：胜 {wins} · 负 {losses} · 和 {draws}',
  helpIntro: '黑白双方轮流在空的交叉点上放一枚棋子，黑方先行。',
  help_freestyle: '自由规则：先在横、竖或斜方向连成五子或更多者获胜。',
  help_standard: '标准规则：恰好连成五子才算获胜；六子或以上（长连）不算，对局继续。',
  help_renju: '连珠规则：为平衡黑方先手优势，黑方不能下出三三、四四或长连（六子或以上）——除非同一手同时连成五子。轮到黑方时，这些禁手点会以 ✕ 标出。白方没有禁手，连成五子或更多即获胜。',
  helpTerms: '“四”是再下一子即可成五的棋形；“活三”是再下一子即可成为两端都空的活四的棋形，活四无法阻挡。',
  helpInput: '轻点交叉点落子。开启“落子前确认”时，第一次轻点会显示预览，再点一次（或点“落子”）确认。使用键盘时，方向键移动光标，回车落子，Ctrl+Z 悔棋。',
  helpDraw: '棋盘下满仍无人获胜，或连珠规则下黑方已无可下之点，即为和棋。',
  leaveTitle: '退出五子？',
  metaSetup: '{meta} · 摆出的局面',
  analysis: '分析',
  evalLabel: '黑方胜率',
  analysisStarting: '分析中…',
  analysisPaused: '电脑思考时暂停',
  analysisInfo: '深度 {depth} · 每秒 {nps} 节点',
  analysisDone: '深度 {depth} · 每秒 {nps} 节点 · 完成',
  analysisOver: '此局面对局已结束',
  candidate: '{point} {score}',
  statsAnalysed: '分析',
  review: '复盘',
  reviewFirst: '第一手', reviewPrev: '上一手', reviewNext: '下一手', reviewLast: '最后一手',
  reviewSlider: '显示的手数',
  reviewing: '复盘中… {done} / {total}',
  reviewProgress: '{done} / {total}',
  reviewCancel: '停止复盘',
  reviewRun: '复盘本局',
  reviewClose: '返回对局',
  reviewPly: '第 {ply} 手，共 {total} 手',
  reviewStartPos: '开局 · 共 {total} 手',
  class_best: '最佳', class_good: '好棋', class_inaccuracy: '欠佳', class_mistake: '错着',
  class_blunder: '大错', 'class_missed-win': '错失胜机',
  reviewMove: '{ply}. {color} {point} — {class}',
  reviewBetter: '更好：{point}',
  graphLabel: '全局形势曲线',
  graphPoint: '第 {ply} 手：{class}',
};

const DICTS = { en, 'zh-CN': zh };
let current = 'en';

/** The language actually used for a `language` setting ("system" | "en" | "zh-CN"). */
export function resolveLanguage(setting, systemLanguages = navigator.languages ?? [navigator.language]) {
  if (setting === 'en' || setting === 'zh-CN') return setting;
  for (const lang of systemLanguages) {
    const l = String(lang).toLowerCase();
    if (l.startsWith('zh')) return 'zh-CN';
    if (l.startsWith('en')) return 'en';
  }
  return 'en';
}

export function setLanguage(setting) {
  current = resolveLanguage(setting);
  document.documentElement.lang = current;
  return current;
}

export function language() {
  return current;
}

/** Translate `key`, filling `{name}` placeholders from `params`. Unknown keys fall back to English. */
export function t(key, params = {}) {
  const text = DICTS[current][key] ?? en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

/** Fill every `data-i18n*` element under `root`. */
export function translateStatic(root = document) {
  if (root === document) document.title = t('appName');
  for (const el of root.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll('[data-i18n-label]')) el.setAttribute('aria-label', t(el.dataset.i18nLabel));
  for (const el of root.querySelectorAll('[data-i18n-placeholder]')) el.setAttribute('placeholder', t(el.dataset.i18nPlaceholder));
}

/**
 * The engine's verdict, sent as data (`{ kind, color, plies, byFours }`, docs/architecture.md),
 * in the current language.
 */
export function verdict(v) {
  const color = v?.color === 'black' || v?.color === 'white' ? t(`verdict_${v.color}`) : '';
  switch (v?.kind) {
    case 'won': return t('verdict_won', { color });
    case 'wins': return t(v.byFours ? 'verdict_winsVcf' : 'verdict_wins', { color, plies: v.plies });
    case 'better': return t('verdict_better', { color });
    case 'winning': return t('verdict_winning', { color });
    default: return t('verdict_even');
  }
}
