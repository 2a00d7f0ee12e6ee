import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ALL_TOOLS, selectTools } from '../../src/tools/builtin/index.js';
import type { Todo } from '../../src/core/todo.js';
import { executeToolCall, inputSchema, type ToolContext } from '../../src/tools/tool.js';
import { Workspace } from '../../src/tools/workspace.js';

let root: string;
let ctx: ToolContext;
const tools = new Map(ALL_TOOLS.map((tool) => [tool.name, tool]));

beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'registry-'));
  const workspace = await Workspace.open(root, { runnerTemp: '' });
  ctx = { workspace, signal: new AbortController().signal, env: {}, outputLimit: 10_000 };
});

afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

describe('tool set', () => {
  it('offers the contract tools in order, only Read, Glob, Grep and WebFetch read-only', () => {
    expect(ALL_TOOLS.map((tool) => tool.name)).toEqual(['Read', 'Write', 'Edit', 'Bash', 'Glob', 'Grep', 'TodoWrite', 'WebFetch']);
    expect(ALL_TOOLS.filter((tool) => tool.readOnly).map((tool) => tool.name)).toEqual(['Read', 'Glob', 'Grep', 'WebFetch']);
  });

  it("describes inputs with Claude Code's field names", () => {
    const fields = (name: string): string[] => {
      const tool = tools.get(name);
      if (!tool) throw new Error(`no tool ${name}`);
      const schema = inputSchema(tool);
      const properties = schema['properties'];
      return typeof properties === 'object' && properties !== null ? Object.keys(properties) : [];
    };
    expect(fields('Read')).toEqual(['file_path', 'offset', 'limit']);
    expect(fields('Edit')).toEqual(['file_path', 'old_string', 'new_string', 'replace_all']);
    expect(fields('Grep')).toEqual(['pattern', 'path', 'glob', 'output_mode', '-i', '-n', '-C', 'head_limit']);
    expect(fields('TodoWrite')).toEqual(['todos']);
  });

  it('selects tools by name and names the unknown ones', () => {
    expect(selectTools(['Grep', 'Read']).map((tool) => tool.name)).toEqual(['Read', 'Grep']);
    expect(() => selectTools(['Read', 'NotebookEdit'])).toThrow('Unknown tool name(s): NotebookEdit');
  });
});

describe('executeToolCall', () => {
  it('turns invalid input into an is_error result naming the field', async () => {
    const result = await executeToolCall(tools, 'Read', { file_path: 42 }, ctx);
    expect(result.isError).toBe(true);
    expect(result.content).toContain('file_path');
  });

  it('turns a tool failure into an is_error result', async () => {
    const result = await executeToolCall(tools, 'Read', { file_path: 'missing.txt' }, ctx);
    expect(result).toMatchObject({ isError: true, content: expect.stringContaining('does not exist') });
  });
});

describe('TodoWrite', () => {
  it('hands the list to onTodos and echoes the checklist with a reminder', async () => {
    const seen: Todo[][] = [];
    ctx.onTodos = (todos) => seen.push(todos);
    const todos = [
      { content: 'Read the code', status: 'completed' },
      { content: 'Fix the bug', status: 'in_progress', activeForm: 'Fixing the bug' },
      { content: 'Run tests', status: 'pending' },
    ];
    const result = await executeToolCall(tools, 'TodoWrite', { todos }, ctx);
    expect(seen).toEqual([todos]);
    expect(result.content).toContain('[x] Read the code\n[~] Fixing the bug\n[ ] Run tests');
    expect(result.content).toContain('exactly one item in_progress');
  });

  it('rejects an unknown status', async () => {
    const result = await executeToolCall(tools, 'TodoWrite', { todos: [{ content: 'x', status: 'done' }] }, ctx);
    expect(result.isError).toBe(true);
  });
});
