/* smait_marker.h — user-defined phases in programs traced by smait-cc
 * (docs/collector.md). A marker of thread 0 begins a new analysis phase.
 * cmd: 0 nothing else, 1/2 stop/resume this thread's detailed tracing,
 * 3/4 stop/resume all threads'; num: any number, shown in the trace.
 * Without smait-cc the call does nothing (define SMAIT_MARKER_NOOP). */
#ifndef SMAIT_MARKER_H
#define SMAIT_MARKER_H
#ifdef SMAIT_MARKER_NOOP
#define smait_marker(cmd, num) ((void)(cmd), (void)(num))
#else
void smait_marker(int cmd, int num);
#endif
#endif
