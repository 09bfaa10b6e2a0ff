/* The hand-written closed-form peer of benchmark 1 (closed_form_peer.c). */
#ifndef LIBCONT_BENCH_CLOSED_FORM_PEER_H
#define LIBCONT_BENCH_CLOSED_FORM_PEER_H
#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  double m, k, c, a, d, w, r;  /* the moving base's parameters (w: omega) */
  double t0, x0, v0;           /* start */
  int transient, periods;      /* forcing periods before averaging, averaged over */
} ClosedFormPeerParameters;

typedef struct {
  double exponents[2];  /* descending */
  double impacts_per_period;
  double t, x, v;       /* final state */
} ClosedFormPeerResult;

/* 0 on success; -1 on a chatter (the peer has no sticking), -2 for parameters outside
 * its closed form (not underdamped). */
int closed_form_peer_lyapunov(const ClosedFormPeerParameters* p, ClosedFormPeerResult* out);

#ifdef __cplusplus
}
#endif
#endif
