/**
 * Command-line import and the first administrator (decisions.md "Command line"):
 *
 * - `products:import <file> [--confirm]`, `people:import <file> [--confirm]`: the same two phases as the HTTP
 *   import (src/imports/service.ts). Without `--confirm` the preview is printed and nothing is written; with
 *   it the preview is confirmed at once (one transaction). Exit 0 on success, 1 when the file is refused,
 *   2 on a usage error.
 * - `people:add <phone> <name> <role>`: adds a role to a person (src/people/service.ts), e.g. the first
 *   administrator: `people:add 13800138000 张三 admin`.
 *
 * With the embedded database the CLI refuses to start while the server holds the data folder (src/cli.ts).
 */
import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import type { AppContext } from '../context.ts';
import { AppError } from '../errors.ts';
import { ROLE_LABELS } from '../auth/roles.ts';
import type { ImportKind } from '../imports/kind.ts';
import { MAX_UPLOAD_BYTES } from '../imports/limits.ts';
import { confirmImport, previewImport, type PreviewAnswer } from '../imports/service.ts';
import { peopleImport } from '../people/import.ts';
import { savePerson } from '../people/service.ts';
import { productImport, type ProductPreviewRow } from '../products/import.ts';
import type { CliCommand } from './cli-command.ts';
import type { CommandActor } from '../commands/command.ts';
import { isDomainError } from '../domain/errors.ts';
import { domainAnswer } from '../http/domain-errors.ts';

/** Who a command-line import's events (a product's rates) name: the command line itself. */
export const CLI_ACTOR: CommandActor = { system: { actorName: '命令行导入', role: 'system' } };

const MAX_LISTED = 50;

function printPreview<T extends { row: number }>(title: string, p: PreviewAnswer<T>, describe: (r: T) => string): void {
  const c = p.counts;
  console.log(`${title}：新增 ${c.create}，更新 ${c.update}，不变 ${c.unchanged}，错误 ${c.errors}`);
  const list = (label: string, rows: T[]) => {
    if (!rows.length) return;
    console.log(`${label}：`);
    for (const r of rows.slice(0, MAX_LISTED)) console.log(`  第 ${r.row} 行  ${describe(r)}`);
    if (rows.length > MAX_LISTED) console.log(`  …… 另有 ${rows.length - MAX_LISTED} 行`);
  };
  list('新增', p.create);
  list('更新', p.update);
  if (p.errors.length) {
    console.log('错误行（不会导入）：');
    for (const e of p.errors) console.log(`  第 ${e.row} 行  [${e.code}] ${e.reason}`);
  }
}

const describeProduct = (r: ProductPreviewRow) => {
  const base = `${r.projectNo} / ${r.productName} / ${r.deviceNo} / ${r.processName}  节拍 ${r.standardCycleSeconds} 秒，工作量 ${r.standardWorkload}`;
  return r.changes ? `${base}（${r.changes.map((c) => `${c.label}: ${c.from ?? '空'} → ${c.to ?? '空'}`).join('，')}）` : base;
};

function importCommand<T extends { row: number }, S>(kind: ImportKind<T, S>, title: string, describe: (r: T) => string): CliCommand {
  return async (ctx: AppContext, args: string[]) => {
    const confirm = args.includes('--confirm');
    const files = args.filter((a) => a !== '--confirm');
    if (files.length !== 1) {
      console.error(`用法 / usage: ${kind.name}:import <file.xlsx|file.xls> [--confirm]`);
      return 2;
    }
    const path = files[0];
    try {
      const size = (await stat(path)).size;
      if (size > MAX_UPLOAD_BYTES) throw new AppError(413, 'FILE_TOO_LARGE', `文件超过 ${MAX_UPLOAD_BYTES / 1024 / 1024} MB，请分成几个文件导入`);
      const preview = await previewImport(ctx, kind, { buffer: await readFile(path), fileName: basename(path) }, null);
      printPreview(`${title} ${basename(path)}`, preview, describe);
      if (!confirm) {
        console.log('预览完成，未写入任何数据。确认无误后加 --confirm 再运行一次。');
        return 0;
      }
      const done = await confirmImport(ctx, kind, preview.importId, null, CLI_ACTOR);
      const n = done.counts;
      console.log(`已写入：新增 ${n.created}，更新 ${n.updated}（不变 ${n.unchanged}，跳过错误行 ${n.errors}）`);
      return 0;
    } catch (err) {
      if (err instanceof AppError) {
        console.error(`导入被拒绝 [${err.code}]：${err.message}`);
        return 1;
      }
      if (isDomainError(err)) {
        console.error(`导入被拒绝 [${err.code}]：${domainAnswer(err).message}`);
        return 1;
      }
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
        console.error(`找不到文件：${path}`);
        return 1;
      }
      throw err;
    }
  };
}

export const importCliCommands: Record<string, { usage: string; run: CliCommand }> = {
  'products:import': {
    usage: 'products:import <file.xlsx|file.xls> [--confirm]',
    run: importCommand(productImport, '产品清单', describeProduct),
  },
  'people:import': {
    usage: 'people:import <file.xlsx|file.xls> [--confirm]',
    run: importCommand(peopleImport, '人员清单', (r) => `${r.phone} ${r.name} ${ROLE_LABELS[r.role]}`),
  },
  'people:add': {
    usage: 'people:add <phone> <name> <role: worker|admin|manager|员工|管理员|经理>',
    async run(ctx, args) {
      if (args.length !== 3) {
        console.error('用法 / usage: people:add <phone> <name> <role>，例如 people:add 13800138000 张三 admin');
        return 2;
      }
      const [phone, name, role] = args;
      try {
        const { person, result } = await savePerson(ctx, { phone, name, role });
        const verb = { created: '已添加', updated: '已更新', unchanged: '无需修改' }[result];
        console.log(`${verb}：${person.phone} ${person.name}，角色：${person.roles.map((r) => ROLE_LABELS[r]).join('、')}`);
        return 0;
      } catch (err) {
        if (err instanceof AppError) {
          console.error(`未添加 [${err.code}]：${err.message}`);
          return 1;
        }
        throw err;
      }
    },
  },
};
