#!/usr/bin/env python3
"""Splits each of the computer's handling windows (issue 39) by what its thread was doing, from an ftrace trace.

    python3 Benchmarks/handling-tail.py --trace T --tgids G --bench-pid P --console C BENCH-OUTPUT-FOLDER
    python3 Benchmarks/handling-tail.py --self-test

A handling window is a receipt's received → last uinput write returned (the computer's receipts log, CLOCK_MONOTONIC
ns; `hil bench`'s "peripheral" stage). The trace (Benchmarks/handling-tail-job.sh: sched_switch, irq and softirq
entry/exit, trace_clock mono, record-tgid) gives every thread on or off a CPU. The handling thread of a
window is the computer's thread on a CPU at its receipt. Its window is then split into:

  running    on a CPU, outside interrupts
  irq        on a CPU, in a hard or soft interrupt handler
  preempted  off its CPU, runnable (switched out in state R): another task had the CPU
  asleep     off its CPU, blocked (switched out in S or D: a lock, the kernel's I/O)

The guest cannot see the host taking its vCPU away (TCG has no steal time): that shows as running. Per path (the
bench runs them one after another: its console's column order and bench.json's counts tell which receipts are whose)
it prints the percentiles of the window and of
each part, then for the windows over 1 ms how their time divides and who had the CPU while ours waited.
"""
import argparse, bisect, collections, glob, json, os, re, sys

LINE = re.compile(r'^\s*(?P<task>.+?)-(?P<pid>\d+)\s+(?:\(\s*(?P<tgid>[-\d]+)\)\s+)?\[(?P<cpu>\d+)\]\s+\S+\s+'
                  r'(?P<ts>\d+\.\d+):\s+(?P<event>\w+):\s+(?P<rest>.*)$')
SWITCH = re.compile(r'prev_comm=(?P<pc>.*?) prev_pid=(?P<pp>\d+) prev_prio=-?\d+ prev_state=(?P<ps>\S+) ==> '
                    r'next_comm=(?P<nc>.*?) next_pid=(?P<np>\d+) next_prio=-?\d+')
SLACK_NS = 2_000  # the trace's timestamps are microseconds
NAMES = {'0': 'read', '1': 'write', '7': 'poll', '9': 'mmap', '11': 'munmap', '12': 'brk', '20': 'writev', '28': 'madvise',
         '44': 'sendto', '45': 'recvfrom', '46': 'sendmsg', '47': 'recvmsg', '202': 'futex', '228': 'clock_gettime',
         '232': 'epoll_wait', '271': 'ppoll', '281': 'epoll_pwait'}  # x86_64


class Interval:
    __slots__ = ('start', 'end', 'cpu', 'state', 'successor')

    def __init__(self, start, cpu):
        self.start, self.end, self.cpu, self.state, self.successor = start, None, cpu, None, None


class Trace:
    """Each thread's spells on a CPU, each CPU's spells in interrupts, each thread's tgid."""

    def __init__(self, lines, tgid_lines=()):
        self.spells = collections.defaultdict(list)     # tid -> [Interval] in time order
        self.irq = collections.defaultdict(list)        # cpu -> [(start, end)]
        self.tgid = {}
        self.calls = collections.defaultdict(list)      # tid -> [(enter, exit, nr)] (SYSCALLS=1)
        self.faults = collections.defaultdict(list)     # tid -> [time] of user page faults (SYSCALLS=1)
        entered = {}
        for line in tgid_lines:
            parts = line.split()
            if len(parts) == 2 and parts[0].isdigit() and parts[1].isdigit():
                self.tgid[int(parts[0])] = int(parts[1])
        running, depth, irq_start, switched = {}, collections.Counter(), {}, set()
        self.first = self.last = None
        for line in lines:
            m = LINE.match(line)
            if not m:
                continue
            ts = round(float(m['ts']) * 1e9)
            cpu = int(m['cpu'])
            self.first = ts if self.first is None else self.first
            self.last = ts
            if m['tgid'] and m['tgid'].isdigit():
                self.tgid.setdefault(int(m['pid']), int(m['tgid']))
            event = m['event']
            if event == 'sched_switch':
                s = SWITCH.search(m['rest'])
                if not s:
                    continue
                prev, nxt = int(s['pp']), int(s['np'])
                spell = running.pop(cpu, None)
                if spell is None and cpu not in switched:
                    # The CPU's first switch: prev ran since the trace began.
                    spell = (prev, Interval(self.first, cpu))
                    self.spells[prev].append(spell[1])
                switched.add(cpu)
                if spell is not None and spell[0] == prev:
                    spell[1].end, spell[1].state, spell[1].successor = ts, s['ps'], s['nc']
                # Otherwise a switch between two tasks not of ours went unrecorded (the filter) and prev's spell
                # began then: it is not ours either, so it is left out.
                if nxt != 0:
                    interval = Interval(ts, cpu)
                    self.spells[nxt].append(interval)
                    running[cpu] = (nxt, interval)
            elif event == 'sys_enter':
                entered[int(m['pid'])] = (ts, m['rest'].split()[1] if m['rest'].startswith('NR ') else '?')
            elif event == 'sys_exit':
                call = entered.pop(int(m['pid']), None)
                if call:
                    self.calls[int(m['pid'])].append((call[0], ts, call[1]))
            elif event == 'page_fault_user':
                self.faults[int(m['pid'])].append(ts)
            elif event in ('irq_handler_entry', 'softirq_entry'):
                if depth[cpu] == 0:
                    irq_start[cpu] = ts
                depth[cpu] += 1
            elif event in ('irq_handler_exit', 'softirq_exit') and depth[cpu] > 0:
                depth[cpu] -= 1
                if depth[cpu] == 0:
                    self.irq[cpu].append((irq_start.pop(cpu), ts))
        for tid, interval in running.values():
            interval.end = self.last
        for tid in list(self.spells):
            self.spells[tid] = sorted((i for i in self.spells[tid] if i.end is not None), key=lambda i: i.start)
        self.starts = {tid: [i.start for i in spells] for tid, spells in self.spells.items()}
        self.irq_starts = {cpu: [s for s, _ in spans] for cpu, spans in self.irq.items()}

    def on_cpu(self, tid, at):
        spells = self.spells.get(tid, [])
        k = bisect.bisect_right(self.starts.get(tid, []), at + SLACK_NS) - 1
        return k >= 0 and spells[k].end is not None and spells[k].end >= at - SLACK_NS

    def irq_time(self, cpu, start, end):
        spans, starts = self.irq.get(cpu, []), self.irq_starts.get(cpu, [])
        total, k = 0, max(bisect.bisect_right(starts, start) - 1, 0)
        while k < len(spans) and spans[k][0] < end:
            total += max(0, min(end, spans[k][1]) - max(start, spans[k][0]))
            k += 1
        return total

    def inside(self, tid, start, end):
        """Time in each system call (by number) and the user page faults of `tid` within [start, end]."""
        spent = collections.Counter()
        for enter, leave, nr in self.calls.get(tid, []):
            if enter < end and leave > start:
                spent[nr] += min(end, leave) - max(start, enter)
        return spent, sum(1 for at in self.faults.get(tid, []) if start <= at <= end)

    def split(self, tid, start, end):
        """(running, irq, preempted, asleep, successors) of `tid` over [start, end], in ns."""
        running = irq = preempted = asleep = 0
        successors = collections.Counter()
        spells = self.spells.get(tid, [])
        k = max(bisect.bisect_right(self.starts.get(tid, []), start) - 1, 0)
        cursor = start
        while k < len(spells) and spells[k].start < end:
            spell = spells[k]
            k += 1
            if spell.end is None or spell.end <= start:
                continue
            gap = max(0, spell.start - cursor)
            if gap and k >= 2:
                before = spells[k - 2]
                if (before.state or '').startswith('R'):
                    preempted += gap
                    successors[before.successor] += gap
                else:
                    asleep += gap
            on_start, on_end = max(spell.start, start), min(spell.end, end)
            if on_end > on_start:
                in_irq = self.irq_time(spell.cpu, on_start, on_end)
                irq += in_irq
                running += on_end - on_start - in_irq
            cursor = max(cursor, on_end)
        return running, irq, preempted, asleep, successors


def receipts(folder):
    for path in sorted(glob.glob(os.path.join(folder, '**', 'receipts*.log'), recursive=True)):
        for line in open(path, errors='replace'):
            parts = line.rstrip('\n').split(' ', 2)
            if len(parts) == 3 and parts[0].isdigit() and parts[1] not in ('-', 'none'):
                written = [int(w) for w in parts[1].split(',') if w.isdigit()]
                if written:
                    yield int(parts[0]), written[-1], parts[2]


def kind(payload):
    return 'hid' if payload.startswith('hid ') else 'udp' if payload.startswith('udp ') else 'json'


def label(windows, order, counts):
    """Each window's path. The bench runs its paths one after another in `order` (its console table's columns); each
    path takes the next `counts[path]` receipts of its kind (JSON for dbus, fd and tcp; a report for hid and udp)."""
    labelled, k = [], 0
    for path in order:
        want, taken = ('json' if path in ('dbus', 'fd', 'tcp') else path), 0
        while k < len(windows) and taken < counts.get(path, 0):
            if kind(windows[k][2]) == want:
                labelled.append((path,) + windows[k])
                taken += 1
            k += 1
    return labelled


def bench_paths(console, bench_json):
    """The paths in the order they ran (the console table's header) and how many receipts each had (bench.json)."""
    lines = open(console, errors='replace').read().splitlines()
    header = next((lines[i - 1] for i in range(1, len(lines)) if lines[i].startswith('sent ')), '')
    order = header.split()
    paths = json.load(open(bench_json)).get('paths', {})
    return order, {name: paths[name].get('received', 0) for name in order if name in paths}


def pct(values, q):
    if not values:
        return float('nan')
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def analyse(trace, windows, bench_pid):
    """Per path: {'wall': [...], 'running': [...], ..., 'over': Counter of parts over 1 ms, 'who': Counter}."""
    votes = collections.Counter()
    ours = [tid for tid in trace.spells if tid != 0 and trace.tgid.get(tid) not in (None, bench_pid)]
    for _, received, _, _ in windows[:2000]:
        for tid in ours:
            if trace.on_cpu(tid, received):
                votes[trace.tgid[tid]] += 1
    if not votes:
        raise SystemExit('handling-tail: no thread of the computer is on a CPU at any receipt: is it the same run?')
    computer = votes.most_common(1)[0][0]
    threads = [tid for tid in trace.spells if trace.tgid.get(tid) == computer]
    paths = collections.defaultdict(lambda: collections.defaultdict(list))
    unattributed = collections.Counter()
    for path, received, written, payload in windows:
        handlers = [tid for tid in threads if trace.on_cpu(tid, received)]
        if len(handlers) != 1:
            unattributed['none' if not handlers else 'several'] += 1
            continue
        tid = handlers[0]
        row = paths[path]
        running, irq, preempted, asleep, who = trace.split(tid, received, written)
        wall = written - received
        for key, value in (('wall', wall), ('running', running), ('irq', irq), ('preempted', preempted), ('asleep', asleep)):
            row[key].append(value / 1e6)
        if wall > 1_000_000:
            row['over'].append((running, irq, preempted, asleep, wall - running - irq - preempted - asleep))
            row.setdefault('who', collections.Counter()).update({k: v / 1e6 for k, v in who.items()})
            if trace.calls:
                calls, faults = trace.inside(tid, received, written)
                row.setdefault('calls', collections.Counter()).update(calls)
                row['faults'] = row.get('faults', 0) + faults
    return computer, paths, unattributed


def report(computer, paths, unattributed, out=sys.stdout):
    print(f'computer tgid {computer}; windows not attributed to one thread: {dict(unattributed) or 0}', file=out)
    print('path  n     wall p50/p99 ms   running p50/p99   irq p99   preempted p99   asleep p99   windows > 1 ms '
          '(of which running ≤ 1 ms)', file=out)
    for path in paths:
        row = paths.get(path)
        if not row:
            continue
        over = row.get('over', [])
        fits = sum(1 for parts in over if parts[0] + parts[1] <= 1_000_000)
        print(f"{path:5} {len(row['wall']):5} {pct(row['wall'], .5):6.3f} / {pct(row['wall'], .99):6.3f}   "
              f"{pct(row['running'], .5):6.3f} / {pct(row['running'], .99):6.3f}   {pct(row['irq'], .99):6.3f}   "
              f"{pct(row['preempted'], .99):10.3f}   {pct(row['asleep'], .99):9.3f}   {len(over):5} ({fits})", file=out)
    for path in paths:
        over = paths.get(path, {}).get('over', [])
        if not over:
            continue
        total = sum(sum(parts) for parts in over) or 1
        shares = [sum(parts[i] for parts in over) / total * 100 for i in range(5)]
        who = paths[path].get('who', collections.Counter()).most_common(4)
        print(f'{path}: the {len(over)} windows over 1 ms: running {shares[0]:.0f} %, irq {shares[1]:.0f} %, preempted '
              f'{shares[2]:.0f} %, asleep {shares[3]:.0f} %, unaccounted {shares[4]:.0f} %; the CPU went to '
              + (', '.join(f'{name} {ms:.1f} ms' for name, ms in who) or 'no other task (never preempted)'), file=out)
        if 'calls' in paths[path]:
            calls = paths[path]['calls']
            print(f"  in system calls {sum(calls.values()) / total * 100:.0f} % of it ("
                  + ', '.join(f'{NAMES.get(nr, "NR " + nr)} {ns / total * 100:.0f} %' for nr, ns in calls.most_common(4))
                  + f"), {paths[path].get('faults', 0)} user page faults", file=out)


def self_test():
    # CPU 0: the computer's handler (tid 11, tgid 10) runs 1.000000–1.000100, is preempted by bluetoothd until
    # 1.001600, runs to 1.001700 with a timer interrupt of 50 µs in it. CPU 1: the bench (tgid 20) all along.
    trace = Trace("""
 <idle>-0 (-------) [000] d..2. 1.000000: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=hil next_pid=11 next_prio=120
 <idle>-0 (-------) [001] d..2. 1.000000: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=hil next_pid=21 next_prio=120
 hil-11 (10) [000] ..... 1.000020: sys_enter: NR 1 (5, 7ffd0000, 18, 0, 0, 0)
 hil-11 (10) [000] ..... 1.000030: page_fault_user: address=0x7f0000001000 ip=0x55550000 error_code=0x6
 hil-11 (10) [000] ..... 1.000060: sys_exit: NR 1 = 24
 hil-11 (10) [000] d..2. 1.000100: sched_switch: prev_comm=hil prev_pid=11 prev_prio=120 prev_state=R+ ==> next_comm=bluetoothd next_pid=5 next_prio=120
 bluetoothd-5 (5) [000] d..2. 1.001600: sched_switch: prev_comm=bluetoothd prev_pid=5 prev_prio=120 prev_state=S ==> next_comm=hil next_pid=11 next_prio=120
 hil-11 (10) [000] d.h1. 1.001620: irq_handler_entry: irq=0 name=timer
 hil-11 (10) [000] d.h1. 1.001670: irq_handler_exit: irq=0 ret=handled
 hil-11 (10) [000] d..2. 1.001800: sched_switch: prev_comm=hil prev_pid=11 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120
 hil-21 (20) [001] d..2. 1.002000: sched_switch: prev_comm=hil prev_pid=21 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120
""".splitlines(), ["11 10", "21 20"])
    windows = label([(1_000_010_000, 1_001_700_000, '{"cursorMove":{"delta":[1,0]}}')], ['dbus'], {'dbus': 1})
    computer, paths, unattributed = analyse(trace, windows, bench_pid=20)
    row = paths['dbus']
    checks = [(computer, 10), (dict(unattributed), {}), (row['wall'], [1.69]), (row['preempted'], [1.5]),
              (round(row['irq'][0], 3), 0.05), (round(row['running'][0], 3), 0.14), (row['asleep'], [0.0]),
              (len(row['over']), 1), (dict(row['who']), {'bluetoothd': 1.5}), (dict(row['calls']), {'1': 40_000}),
              (row['faults'], 1)]
    failed = [(got, want) for got, want in checks if got != want]
    for got, want in failed:
        print(f'self-test: got {got!r}, expected {want!r}', file=sys.stderr)
    print('self-test: ' + ('failed' if failed else 'ok'))
    return 1 if failed else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('folder', nargs='?', help="the bench's --output folder (its receipts*.log, at any depth)")
    parser.add_argument('--trace', help='the ftrace text (the job\'s NAME.trace)')
    parser.add_argument('--tgids', help="the tracer's saved_tgids (the job's NAME.tgids)")
    parser.add_argument('--console', help="the bench's console output (the job's NAME.txt): the order of its paths")
    parser.add_argument('--bench-pid', type=int, default=-1, help="hil bench's pid: the phone's side, not the computer")
    parser.add_argument('--self-test', action='store_true', help='check the accounting on a made-up trace')
    args = parser.parse_args()
    if args.self_test:
        return self_test()
    if not (args.folder and args.trace):
        parser.error('give the bench folder and --trace (or --self-test)')
    windows = sorted(receipts(args.folder))
    if not windows:
        raise SystemExit(f'handling-tail: no receipts with a uinput write under {args.folder}')
    if not args.console:
        parser.error("give --console (the bench's console output)")
    order, counts = bench_paths(args.console, os.path.join(args.folder, 'bench.json'))
    windows = label(windows, order, counts)
    tgids = open(args.tgids).read().splitlines() if args.tgids else []
    with open(args.trace, errors='replace') as lines:
        trace = Trace(lines, tgids)
    if trace.first is None:
        raise SystemExit(f'handling-tail: no events in {args.trace}')
    inside = [w for w in windows if trace.first <= w[1] and w[2] <= trace.last]
    print(f'{len(inside)} of {len(windows)} handling windows inside the trace '
          f'({(trace.last - trace.first) / 1e9:.1f} s)')
    report(*analyse(trace, inside, args.bench_pid))
    return 0


if __name__ == '__main__':
    sys.exit(main())
