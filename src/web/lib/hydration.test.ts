import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

type Hydration = typeof import('./hydration.ts');

/** A fresh copy of the module (its state is the page's) and the one element of a page it writes to. */
async function freshPage(): Promise<{ hydration: Hydration; root: { dataset: Record<string, string> } }> {
  vi.resetModules();
  const root = { dataset: {} as Record<string, string> };
  vi.stubGlobal('document', { documentElement: root });
  // Node draws no frames: the next "frame" is the next task.
  vi.stubGlobal('requestAnimationFrame', (callback: () => void) => setTimeout(callback, 0));
  return { hydration: await import('./hydration.ts'), root };
}

const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

/** Tasks until the page says it is hydrated (a few: after the frame that runs the parts' effects). */
async function tasksUntilHydrated(root: { dataset: Record<string, string> }): Promise<number> {
  for (let tasks = 1; tasks <= 10; tasks++) {
    await nextTask();
    if (root.dataset.hydrated === 'true') return tasks;
  }
  throw new Error('the page never said it was hydrated');
}

describe('parts hydrated later (issue 15, HydrateLater)', () => {
  beforeEach(() => vi.unstubAllGlobals());
  afterEach(() => vi.unstubAllGlobals());

  it('render at once when no server-rendered page is being hydrated', async () => {
    const { hydration } = await freshPage();
    expect(hydration.waitForTurn()).toBeUndefined();
  });

  it('take their turns in page order, one per task, after the first pass; the page is hydrated after the last', async () => {
    const { hydration, root } = await freshPage();
    hydration.startHydration();
    const order: number[] = [];
    const turns = [1, 2, 3].map((n) => {
      const turn = hydration.waitForTurn();
      turn?.then(() => order.push(n));
      return turn;
    });
    expect(turns.every(Boolean)).toBe(true);

    await nextTask();
    expect(order, 'nothing before the first pass is done').toEqual([]);

    hydration.firstPassFinished();
    expect(order).toEqual([]);
    await nextTask();
    expect(order, 'one part in the first task').toEqual([1]);
    expect(root.dataset.hydrated).toBeUndefined();
    await nextTask();
    expect(order).toEqual([1, 2]);
    await nextTask();
    expect(order).toEqual([1, 2, 3]);
    expect(root.dataset.hydrated, 'not while the last part may still be rendering').toBeUndefined();
    await tasksUntilHydrated(root);
    // A part rendered once the page is hydrated (a later navigation) does not wait.
    expect(hydration.waitForTurn()).toBeUndefined();
  });

  it('give a part inside a part hydrated later a turn of its own, after the parts already waiting', async () => {
    const { hydration, root } = await freshPage();
    hydration.startHydration();
    const order: string[] = [];
    // The outer part renders in its turn and meets the inner one then (as Preact does, in the turn's microtasks).
    hydration.waitForTurn()?.then(() => {
      order.push('outer');
      hydration.waitForTurn()?.then(() => order.push('inner'));
    });
    hydration.waitForTurn()?.then(() => order.push('next'));
    hydration.firstPassFinished();
    await nextTask();
    expect(order).toEqual(['outer']);
    await nextTask();
    expect(order).toEqual(['outer', 'next']);
    await nextTask();
    expect(order, 'the inner part in a task of its own').toEqual(['outer', 'next', 'inner']);
    expect(root.dataset.hydrated).toBeUndefined();
    await tasksUntilHydrated(root);
  });

  it("say the page is hydrated only after the last part's effects have run (the hand-over comes after them)", async () => {
    const { hydration, root } = await freshPage();
    hydration.startHydration();
    let effectRan = false;
    let hydratedBeforeEffect = false;
    // As Preact schedules a part's effects when it renders: after the next frame, in a task of their own.
    hydration.waitForTurn()?.then(() =>
      requestAnimationFrame(() =>
        setTimeout(() => {
          hydratedBeforeEffect = root.dataset.hydrated === 'true';
          effectRan = true;
        }, 0),
      ),
    );
    hydration.firstPassFinished();
    await tasksUntilHydrated(root);
    expect(effectRan).toBe(true);
    expect(hydratedBeforeEffect).toBe(false);
  });

  it("are not Promises, and call everything waiting on them (the part and its Suspense) in the turn's task", async () => {
    // Lighthouse's runs record the JavaScript stack at every Promise and `then` (async call stacks): turns are plain
    // callbacks, so the first pass makes none per part.
    const { hydration, root } = await freshPage();
    hydration.startHydration();
    const turn = hydration.waitForTurn();
    expect(turn).toBeDefined();
    expect(turn).not.toBeInstanceOf(Promise);
    const calls: string[] = [];
    turn?.then(() => calls.push('part'));
    turn?.then(() => calls.push('suspense'));
    hydration.firstPassFinished();
    await nextTask();
    expect(calls).toEqual(['part', 'suspense']);
    // Waited on after its turn came (a part rendered again meanwhile): called at once.
    turn?.then(() => calls.push('late'));
    expect(calls).toEqual(['part', 'suspense', 'late']);
    await tasksUntilHydrated(root);
  });

  it('say the page is hydrated at once when no part waits', async () => {
    const { hydration, root } = await freshPage();
    hydration.startHydration();
    hydration.firstPassFinished();
    expect(root.dataset.hydrated).toBe('true');
  });
});
