import fc from 'fast-check';

/**
 * Installations in the forms people write them, generated: server.cfg (with an #include), basic.cfg, a
 * profile (the game's layout or TADST's), BattlEye's config (its file and folder names in any case) and a
 * start command, each key with a value that a field may or may not take, keys Garrison has no field
 * for, nested classes, comments, empty arrays, CRLF or LF, with or without spaces and semicolons.
 */
type V = number | boolean | { s: string } | { bare: string } | V[];
interface Stmt {
  key: string;
  value?: V;
  body?: Stmt[];
  /** `key[] += {…}`, or a list written without `[]` (which the game does not take). */
  form?: 'append' | 'bare';
}
export interface Installation {
  files: Record<string, string>;
  commandLine: string;
  mods: string[];
}

const str = (s: string): V => ({ s });
const text = fc.stringMatching(/^[A-Za-z0-9 #|&'"()_.!-]{0,24}$/);
const word = fc.stringMatching(/^[a-z][A-Za-z0-9_]{0,10}$/);
const uid = fc.bigInt({ min: 76561197960265728n, max: 76561199999999999n }).map((n) => n.toString());
const bit = fc.constantFrom<V>(0, 1, true, false);
const flags = (n: number) => fc.array(fc.constantFrom<V>(0, 1), { maxLength: n });
const value: fc.Arbitrary<V> = fc.letrec<{ v: V }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.integer({ min: -5, max: 100000 }),
    fc.constantFrom(0.5, 0.001, 2.75),
    fc.boolean(),
    text.map(str),
    word.map((bare) => ({ bare })),
    fc.array(tie('v'), { maxLength: 3 }),
  ),
})).v;

const opt = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined, freq: 2 });
const managed = (keys: Record<string, fc.Arbitrary<V>>): fc.Arbitrary<Record<string, V | undefined>> =>
  fc.record(Object.fromEntries(Object.entries(keys).map(([k, a]) => [k, opt(a)])));
const present = (r: Record<string, V | undefined>): Stmt[] =>
  Object.entries(r).flatMap(([key, value]) => (value === undefined ? [] : [{ key, value }]));

/** Keys Garrison has no field for, named so that none is one of its own. */
const unknownStmts = (taken: string[]): fc.Arbitrary<Stmt[]> =>
  fc
    .uniqueArray(
      fc.record({
        key: fc.oneof(
          word.map((w) => `x_${w}`),
          fc.constantFrom('allowedVoteCmds', 'allowedVotedAdminCmds', 'requiredSecureId', 'enablePlayerDiag', '3D_Performance'),
        ),
        value,
        form: fc.constantFrom<Stmt['form']>(undefined, undefined, undefined, 'append', 'bare'),
      }),
      { maxLength: 4, selector: (s) => s.key.toLowerCase() },
    )
    .map((list) => list.filter((s) => !taken.includes(s.key.toLowerCase())));
const form = fc.constantFrom<Stmt['form']>(undefined, undefined, undefined, 'append', 'bare');
const unknownClass = fc
  .record({ key: word.map((w) => `X_${w}`), body: fc.array(fc.record({ key: word.map((w) => `k_${w}`), value, form }), { maxLength: 3 }) })
  .map((c) => ({ ...c, body: dedupe(c.body) }));
const dedupe = (list: Stmt[]) => list.filter((s, i) => list.findIndex((o) => o.key.toLowerCase() === s.key.toLowerCase()) === i);

const serverKeys = managed({
  hostname: text.map(str),
  password: fc.stringMatching(/^[a-z0-9]{0,8}$/).map(str),
  maxPlayers: fc.integer({ min: 0, max: 1200 }),
  motd: fc.array(text.map(str), { maxLength: 3 }),
  admins: fc.array(uid.map(str), { maxLength: 2 }),
  voteThreshold: fc.constantFrom(0, 0.33, 0.5, 1.5),
  kickDuplicate: bit,
  verifySignatures: fc.integer({ min: 0, max: 3 }),
  BattlEye: bit,
  timeStampFormat: fc.constantFrom<V>({ bare: 'short' }, str('none'), str('full'), str('Short')),
  forcedDifficulty: fc.constantFrom<V>(str('Recruit'), str('regular'), str('VETERAN'), { bare: 'Custom' }, str('Hard')),
  kickClientsOnSlowNetwork: flags(5),
  kickTimeout: fc.oneof(
    fc.tuple(fc.integer({ min: -2, max: 600 }), fc.integer({ min: -2, max: 600 })).map(([a, b]): V => [
      [0, a],
      [1, b],
      [2, 180],
      [3, 180],
    ]),
    fc.constant<V>([[0, -1]]),
  ),
  disableChannels: fc.oneof(
    fc.constant<V>([]),
    fc.constant<V>([
      [0, true, false],
      [2, false, true],
    ]),
    fc.constant<V>([1, 2]),
  ),
  missionWhitelist: fc.oneof(fc.constant<V>([]), fc.constant<V>([str('co10_Escape.Altis')])),
  filePatchingExceptions: fc.oneof(fc.constant<V>([]), fc.array(uid.map(str), { minLength: 1, maxLength: 2 })),
  regularCheck: fc.constantFrom<V>(str(''), str('{}')),
  missionsToServerRestart: fc.integer({ min: 0, max: 3 }),
  missionsToShutdown: fc.integer({ min: 0, max: 3 }),
  requiredBuild: fc.constantFrom(0, 150000),
  allowedLoadFileExtensions: fc.oneof(fc.constant<V>([]), fc.constant<V>([str('sqf'), str('hpp')])),
  steamProtocolMaxDataSize: fc.integer({ min: 0, max: 70000 }),
  onUnsignedData: fc.constantFrom<V>(str('kick (_this select 0)'), str('')),
});
const advanced = opt(
  fc
    .record({ LogObjectNotFound: bit, queueSizeLogG: fc.constantFrom(0, 1000000) })
    .map((r): Stmt => ({ key: 'AdvancedOptions', body: present(r) })),
);
const missions = opt(
  fc
    .array(
      fc.record({
        template: fc.constantFrom('co10_Escape.Altis', 'tvt20_Arena.Stratis.pbo', 'dm.VR'),
        difficulty: opt(fc.constantFrom('veteran', 'Regular', 'hard')),
        params: fc.boolean(),
      }),
      { maxLength: 3 },
    )
    .map((list): Stmt => ({
      key: 'Missions',
      body: list.map((m, i) => ({
        key: `Mission_${i}`,
        body: [
          { key: 'template', value: { bare: m.template } },
          ...(m.difficulty ? [{ key: 'difficulty', value: str(m.difficulty) }] : []),
          ...(m.params ? [{ key: 'Params', body: [{ key: 'respawnDelay', value: 30 }] }] : []),
        ],
      })),
    })),
);

const basicKeys = managed({
  MaxMsgSend: fc.integer({ min: 0, max: 2048 }),
  MaxSizeGuaranteed: fc.integer({ min: 1, max: 2000 }),
  MinBandwidth: fc.constantFrom(131072, 107374182),
  MinErrorToSend: fc.constantFrom(0.001, 0.0001),
  MaxCustomFileSize: fc.constantFrom(0, 160000),
});
const sockets = opt(fc.integer({ min: 200, max: 1500 }).map((n): Stmt => ({ key: 'sockets', body: [{ key: 'maxPacketSize', value: n }] })));

const options = managed({
  reducedDamage: bit,
  groupIndicators: fc.integer({ min: 0, max: 3 }),
  thirdPersonView: fc.integer({ min: 0, max: 2 }),
  mapContent: bit,
  mapContentFriendly: bit,
  tacticalPing: fc.integer({ min: 0, max: 3 }),
});
const aiLevel = fc
  .record({ skillAI: fc.constantFrom(0.75, 0.5, 1, 1.2), precisionAI: fc.constantFrom(0.55, 0.25) })
  .map((r): Stmt => ({ key: 'CustomAILevel', body: present(r) }));
const profile = fc
  .record({
    top: managed({
      difficulty: fc.constantFrom<V>(str('regular'), str('Custom'), { bare: 'Veteran' }),
      version: fc.constant(1),
      blood: bit,
    }),
    options,
    tadst: fc.boolean(),
    level: aiLevel,
    named: managed({ displayName: text.map(str), levelAI: fc.constantFrom<V>(str('AILevelMedium'), str('AILevelHigh')) }),
    preset: opt(fc.integer({ min: 0, max: 4 })),
    other: fc.boolean(),
  })
  .map(({ top, options, tadst, level, named, preset, other }): Stmt[] => {
    const custom: Stmt = {
      key: 'CustomDifficulty',
      body: [
        ...present(named),
        { key: 'Options', body: present(options) },
        ...(preset === undefined ? [] : [{ key: 'aiLevelPreset', value: preset }]),
        ...(tadst ? [level] : []),
      ],
    };
    const presets: Stmt = {
      key: 'DifficultyPresets',
      body: [
        custom,
        ...(tadst ? [] : [level]),
        ...(other ? [{ key: 'Regular', body: [{ key: 'Options', body: [{ key: 'reducedDamage', value: 1 }] }] }] : []),
      ],
    };
    return [...present(top), presets];
  });

const battlEye = fc.record({
  password: fc.oneof(fc.stringMatching(/^[A-Za-z0-9]{4,12}$/), fc.constant('not-allowed!')),
  port: fc.oneof(fc.integer({ min: 2000, max: 2999 }), fc.constant(80)),
  ping: opt(fc.integer({ min: -1, max: 500 })),
  ip: fc.boolean(),
  keyCase: fc.constantFrom(
    (k: string) => k,
    (k: string) => k.toLowerCase(),
    (k: string) => k.toUpperCase(),
  ),
  file: fc.constantFrom('BEServer_x64.cfg', 'beserver_x64.cfg', 'BEServer.cfg', 'beserver.cfg', 'BESERVER_X64.CFG'),
  folder: fc.constantFrom('BattlEye', 'battleye', 'BATTLEYE'),
});

const command = fc.record({
  port: fc.oneof(fc.integer({ min: 2302, max: 2400 }), fc.constant(99)),
  mods: fc.subarray(['@CBA_A3', '@ace', '@VULTURE[Tech Mod]', '@not_here', '@CUP Terrains - Core']),
  serverMods: fc.subarray(['@AdvancedUrbanRappelling', '@missing_server_mod']),
  launch: fc.subarray([
    '-autoInit',
    '-limitFPS=120',
    '-maxMem=8192',
    '-maxMem=0',
    '-enableHT',
    '-world=empty',
    '-noSound',
    '-exThreads=9',
    '-loadMissionToMemory=false',
  ]),
});

/** One installation, written out. */
export const installation: fc.Arbitrary<Installation> = fc
  .record({
    serverKeys,
    unknown: unknownStmts(['hostname']),
    cls: fc.array(unknownClass, { maxLength: 2 }),
    advanced,
    missions,
    include: fc.boolean(),
    basicKeys,
    basicUnknown: unknownStmts([]),
    sockets,
    profile,
    battlEye,
    command,
    style: fc.record({ crlf: fc.boolean(), tight: fc.boolean(), comments: fc.boolean(), noSemicolon: fc.boolean() }),
  })
  .map((r) => {
    const server = [...present(r.serverKeys), ...r.unknown, ...dedupe(r.cls), ...(r.advanced ? [r.advanced] : [])];
    const split = r.include ? Math.floor(server.length / 2) : server.length;
    const included = [...server.slice(split), ...(r.missions ? [r.missions] : [])];
    const files: Record<string, string> = {
      'server.cfg': write([...server.slice(0, split)], r.style) + (r.include ? '#include "rotation.hpp"\n' : write(included, r.style)),
      'basic.cfg': write(
        [
          ...present(r.basicKeys),
          ...r.basicUnknown.filter((s) => !/^(maxmsgsend|maxsizeguaranteed|minbandwidth|minerrortosend|maxcustomfilesize)$/i.test(s.key)),
          ...(r.sockets ? [r.sockets] : []),
        ],
        r.style,
      ),
      'prof/Users/admin/admin.GameaProfile': write(r.profile, r.style),
    };
    if (r.include) files['rotation.hpp'] = write(included, r.style);
    const be = r.battlEye;
    files[`${be.folder}/${be.file}`] =
      [
        `${be.keyCase('RConPassword')} ${be.password}`,
        `${be.keyCase('RConPort')} ${be.port}`,
        ...(be.ping === undefined ? [] : [`MaxPing ${be.ping}`]),
        ...(be.ip ? ['RConIP 0.0.0.0'] : []),
      ].join(r.style.crlf ? '\r\n' : '\n') + '\n';
    const c = r.command;
    const commandLine = [
      'gameaserver_x64.exe',
      `-port=${c.port}`,
      '-config=server.cfg',
      '-cfg=basic.cfg',
      '-profiles=prof',
      '-name=admin',
      ...(c.mods.length ? [`"-mod=${c.mods.join(';')}"`] : []),
      ...(c.serverMods.length ? [`-serverMod=${c.serverMods.join(';')}`] : []),
      ...c.launch,
    ].join(' ');
    return { files, commandLine, mods: ['@CBA_A3', '@ace', '@VULTURE[Tech Mod]', '@CUP Terrains - Core', '@AdvancedUrbanRappelling'] };
  });

function format(v: V): string {
  if (Array.isArray(v)) return `{${v.map(format).join(', ')}}`;
  if (typeof v === 'object') return 's' in v ? `"${v.s.replace(/"/g, '""')}"` : v.bare;
  return String(v);
}

function write(stmts: Stmt[], style: { crlf: boolean; tight: boolean; comments: boolean; noSemicolon: boolean }, depth = 0): string {
  const pad = '\t'.repeat(depth);
  const eq = style.tight ? '=' : ' = ';
  const out = stmts.map((s, i) => {
    const comment = style.comments && i % 2 === 0 ? (i % 4 === 0 ? ' // kept by hand' : ' /* note */') : '';
    if (s.body) return `${pad}class ${s.key}\n${pad}{\n${write(s.body, style, depth + 1)}${pad}};${comment}\n`;
    const end = style.noSemicolon && depth === 0 && i % 3 === 1 ? '' : ';';
    const list = Array.isArray(s.value);
    const assign = list && s.form === 'append' ? `[]${style.tight ? '+=' : ' += '}` : `${list && s.form !== 'bare' ? '[]' : ''}${eq}`;
    return `${pad}${s.key}${assign}${format(s.value!)}${end}${comment}\n`;
  });
  const text = (style.comments && depth === 0 ? '// written by hand\n' : '') + out.join('');
  return style.crlf ? text.replace(/\n/g, '\r\n') : text;
}
