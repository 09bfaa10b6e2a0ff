!----------------------------------------------------------------------
!   two_body : the two-body vibro-impact system with a Hertz stop
!   (doc/reproduction.md, doc/performance.md) for AUTO-07p, the peer of
!   bench/bench_loading_curve.cpp (see bench/loading_curve_vs_auto.sh).
!
!   State  U(1) = x1, U(2) = x2 - D, U(3) = v1, U(4) = v2 (metres, m/s),
!          U(5), U(6): a harmonic oscillator whose stable limit cycle is
!          U(5) = sin(omega t), U(6) = cos(omega t); it makes the forced
!          system autonomous, so that a T-periodic response is a periodic
!          orbit of period 2 pi / omega (AUTO's PAR(11)).
!   PAR(1) lambda, the forcing intensity: F(t) = lambda F0 cos(omega t)
!   PAR(2) eps, the smoothing width (m) of the contact law
!   PAR(11) the period (fixed at 2 pi / omega by the oscillator)
!   Solution measures set in PVLS (output only):
!   PAR(21) A_max(x1) = (max x1 - min x1) / 2 over the orbit
!   PAR(22) the largest overlap z = x1 - x2 over the orbit; the
!           grazing point is its zero (UZR = {22: 0})
!   PAR(23) A_max(x2)
!
!   Contact: F_con = K max(0, z)^(3/2) with z = x1 - x2 is not smooth
!   enough for collocation; max(0, z) is replaced by the smooth
!   s(z) = (z + sqrt(z^2 + eps^2)) / 2, which differs from it by eps/2
!   at z = 0 and by about eps^2 / (4 |z|) away from it.
!----------------------------------------------------------------------

      MODULE two_body_model
      IMPLICIT NONE
      DOUBLE PRECISION, PARAMETER :: M1 = 1000.d0, M2 = 100.d0
      DOUBLE PRECISION, PARAMETER :: W1 = 6.283d0, W2 = 4.727d0
      DOUBLE PRECISION, PARAMETER :: XI1 = 0.036d0, XI2 = 0.20d0
      DOUBLE PRECISION, PARAMETER :: GAP = 0.05d0, F0 = 400.d0
      DOUBLE PRECISION, PARAMETER :: OMEGA = 6.d0
      ! Hertz: K = (4/3) q / ((d1 + d2) sqrt(A + B)), d = (1 - mu^2)/(pi E)
      DOUBLE PRECISION, PARAMETER :: E_MOD = 2.1d11, POISSON = 0.3d0
      DOUBLE PRECISION, PARAMETER :: Q_HERTZ = 0.318d0, A_B = 1.d0
      CONTAINS

      DOUBLE PRECISION FUNCTION HERTZ_K()
        DOUBLE PRECISION D
        D = (1.d0 - POISSON**2) / (4.d0 * ATAN(1.d0) * E_MOD)
        HERTZ_K = (4.d0 / 3.d0) * Q_HERTZ / (2.d0 * D * SQRT(A_B))
      END FUNCTION HERTZ_K

      ! Smoothed contact force and its slope dF/dz.
      SUBROUTINE CONTACT(Z, EPS, FC, DFC)
        DOUBLE PRECISION, INTENT(IN) :: Z, EPS
        DOUBLE PRECISION, INTENT(OUT) :: FC, DFC
        DOUBLE PRECISION R, S
        R = SQRT(Z * Z + EPS * EPS)
        S = 0.5d0 * (Z + R)
        FC = HERTZ_K() * S * SQRT(S)
        DFC = 1.5d0 * HERTZ_K() * SQRT(S) * 0.5d0 * (1.d0 + Z / R)
      END SUBROUTINE CONTACT
      END MODULE two_body_model

      SUBROUTINE FUNC(NDIM,U,ICP,PAR,IJAC,F,DFDU,DFDP)
      USE two_body_model
      IMPLICIT NONE
      INTEGER, INTENT(IN) :: NDIM, ICP(*), IJAC
      DOUBLE PRECISION, INTENT(IN) :: U(NDIM), PAR(*)
      DOUBLE PRECISION, INTENT(OUT) :: F(NDIM)
      DOUBLE PRECISION, INTENT(INOUT) :: DFDU(NDIM,NDIM), DFDP(NDIM,*)
      DOUBLE PRECISION CHI, K1, K2, C1, C2, Z, FC, DFC, SS

      CHI = M2 / M1
      K1 = W1**2
      K2 = W2**2
      C1 = 2.d0 * XI1 * W1
      C2 = 2.d0 * XI2 * W2
      ! overlap z = x1 - x2 = U(1) - U(2) - D
      Z = U(1) - U(2) - GAP
      CALL CONTACT(Z, PAR(2), FC, DFC)
      SS = U(5)**2 + U(6)**2

      F(1) = U(3)
      F(2) = U(4)
      F(3) = -C1*U(3) - K1*U(1) - C2*CHI*(U(3) - U(4)) - K2*CHI*(U(1) - U(2)) &
             + (PAR(1)*F0*U(6) - FC) / M1
      F(4) = -C2*(U(4) - U(3)) - K2*(U(2) - U(1)) + FC / M2
      F(5) = U(5) + OMEGA*U(6) - U(5)*SS
      F(6) = -OMEGA*U(5) + U(6) - U(6)*SS

      IF (IJAC == 0) RETURN
      DFDU = 0.d0
      DFDU(1,3) = 1.d0
      DFDU(2,4) = 1.d0
      DFDU(3,1) = -K1 - K2*CHI - DFC/M1
      DFDU(3,2) = K2*CHI + DFC/M1
      DFDU(3,3) = -C1 - C2*CHI
      DFDU(3,4) = C2*CHI
      DFDU(3,6) = PAR(1)*F0/M1
      DFDU(4,1) = K2 + DFC/M2
      DFDU(4,2) = -K2 - DFC/M2
      DFDU(4,3) = C2
      DFDU(4,4) = -C2
      DFDU(5,5) = 1.d0 - SS - 2.d0*U(5)**2
      DFDU(5,6) = OMEGA - 2.d0*U(5)*U(6)
      DFDU(6,5) = -OMEGA - 2.d0*U(5)*U(6)
      DFDU(6,6) = 1.d0 - SS - 2.d0*U(6)**2

      IF (IJAC == 1) RETURN
      DFDP(:,1) = 0.d0
      DFDP(3,1) = F0*U(6)/M1
      END SUBROUTINE FUNC

      ! The orbit at lambda = PAR(1) below grazing (0.567): no contact, so
      ! the linear forced response is exact (up to the smoothed force, far
      ! below rounding there). X'' + C X' + K X = b cos(omega t) with
      ! X = (x1, x2 - D); X = Re(Z exp(i omega t)), (K - omega^2 + i omega C) Z = b.
      SUBROUTINE STPNT(NDIM,U,PAR,T)
      USE two_body_model
      IMPLICIT NONE
      INTEGER, INTENT(IN) :: NDIM
      DOUBLE PRECISION, INTENT(INOUT) :: U(NDIM), PAR(*)
      DOUBLE PRECISION, INTENT(IN) :: T
      DOUBLE PRECISION CHI, K1, K2, C1, C2, TPI, PHASE
      COMPLEX(KIND(1.d0)) A(2,2), B(2), Z(2), DET, EJ

      PAR(1) = 0.1d0
      PAR(2) = 1.d-6
      TPI = 8.d0 * ATAN(1.d0)
      PAR(11) = TPI / OMEGA

      CHI = M2 / M1
      K1 = W1**2
      K2 = W2**2
      C1 = 2.d0 * XI1 * W1
      C2 = 2.d0 * XI2 * W2
      A(1,1) = CMPLX(K1 + K2*CHI - OMEGA**2, OMEGA*(C1 + C2*CHI), KIND(1.d0))
      A(1,2) = CMPLX(-K2*CHI, -OMEGA*C2*CHI, KIND(1.d0))
      A(2,1) = CMPLX(-K2, -OMEGA*C2, KIND(1.d0))
      A(2,2) = CMPLX(K2 - OMEGA**2, OMEGA*C2, KIND(1.d0))
      B(1) = PAR(1) * F0 / M1
      B(2) = 0.d0
      DET = A(1,1)*A(2,2) - A(1,2)*A(2,1)
      Z(1) = (A(2,2)*B(1) - A(1,2)*B(2)) / DET
      Z(2) = (A(1,1)*B(2) - A(2,1)*B(1)) / DET

      PHASE = TPI * T           ! omega t, with t = T * PAR(11)
      EJ = EXP(CMPLX(0.d0, PHASE, KIND(1.d0)))
      U(1) = REAL(Z(1) * EJ)
      U(2) = REAL(Z(2) * EJ)
      U(3) = REAL(CMPLX(0.d0, OMEGA, KIND(1.d0)) * Z(1) * EJ)
      U(4) = REAL(CMPLX(0.d0, OMEGA, KIND(1.d0)) * Z(2) * EJ)
      U(5) = SIN(PHASE)
      U(6) = COS(PHASE)
      END SUBROUTINE STPNT

      ! Extremum of component I of the orbit (SIGN = 1 maximum, -1 minimum),
      ! refined by a parabola through the extreme mesh value and its two
      ! neighbours (the orbit is periodic: the neighbours wrap around).
      ! For the overlap (I = 0) the component is U(1) - U(2) - D.
      DOUBLE PRECISION FUNCTION EXTREMUM(U, NDX, NTST, NCOL, I, SIGN, TM)
      USE two_body_model
      IMPLICIT NONE
      INTEGER, INTENT(IN) :: NDX, NTST, NCOL, I
      DOUBLE PRECISION, INTENT(IN) :: U(NDX, 0:NCOL*NTST), SIGN, TM(0:NCOL*NTST)
      INTEGER J, N, JB, JA
      DOUBLE PRECISION Y0, YB, YA, HB, HA, BEST, DEN, P, Q

      N = NCOL * NTST
      BEST = -HUGE(1.d0)
      JB = 0
      DO J = 0, N - 1
         IF (SIGN * VALUEAT(J) > BEST) THEN
            BEST = SIGN * VALUEAT(J)
            JB = J
         END IF
      END DO
      J = JB
      JA = J + 1
      Y0 = SIGN * VALUEAT(J)
      YA = SIGN * VALUEAT(JA)
      HA = TM(JA) - TM(J)
      IF (J == 0) THEN
         YB = SIGN * VALUEAT(N - 1)
         HB = TM(N) - TM(N - 1)
      ELSE
         YB = SIGN * VALUEAT(J - 1)
         HB = TM(J) - TM(J - 1)
      END IF
      ! parabola y(s) = Y0 + P s + Q s^2 through (-HB, YB), (0, Y0), (HA, YA)
      DEN = HA * HB * (HA + HB)
      P = (HB**2 * (YA - Y0) - HA**2 * (YB - Y0)) / DEN
      Q = (HB * (YA - Y0) + HA * (YB - Y0)) / DEN
      EXTREMUM = Y0
      IF (Q < 0.d0) EXTREMUM = Y0 - P**2 / (4.d0 * Q)
      EXTREMUM = SIGN * EXTREMUM
      CONTAINS
        DOUBLE PRECISION FUNCTION VALUEAT(K)
          INTEGER, INTENT(IN) :: K
          IF (I == 0) THEN
             VALUEAT = U(1, K) - U(2, K) - GAP
          ELSE
             VALUEAT = U(I, K)
          END IF
        END FUNCTION VALUEAT
      END FUNCTION EXTREMUM

      SUBROUTINE MEASURES(U, NDX, NTST, NCOL, DTM, PAR)
      IMPLICIT NONE
      INTEGER, INTENT(IN) :: NDX, NTST, NCOL
      DOUBLE PRECISION, INTENT(IN) :: U(NDX, 0:NCOL*NTST), DTM(NTST)
      DOUBLE PRECISION, INTENT(INOUT) :: PAR(*)
      DOUBLE PRECISION, EXTERNAL :: EXTREMUM
      DOUBLE PRECISION TM(0:NCOL*NTST)
      INTEGER J, K

      ! times of the points: NCOL equal parts of each mesh interval
      TM(0) = 0.d0
      DO J = 1, NTST
         DO K = 1, NCOL
            TM((J-1)*NCOL + K) = TM((J-1)*NCOL) + K * DTM(J) / NCOL
         END DO
      END DO
      PAR(21) = 0.5d0 * (EXTREMUM(U, NDX, NTST, NCOL, 1, 1.d0, TM) &
                       - EXTREMUM(U, NDX, NTST, NCOL, 1, -1.d0, TM))
      PAR(22) = EXTREMUM(U, NDX, NTST, NCOL, 0, 1.d0, TM)
      PAR(23) = 0.5d0 * (EXTREMUM(U, NDX, NTST, NCOL, 2, 1.d0, TM) &
                       - EXTREMUM(U, NDX, NTST, NCOL, 2, -1.d0, TM))
      END SUBROUTINE MEASURES

      SUBROUTINE PVLS(NDIM,U,PAR)
      IMPLICIT NONE
      INTEGER, INTENT(IN) :: NDIM
      DOUBLE PRECISION, INTENT(IN) :: U(NDIM)
      DOUBLE PRECISION, INTENT(INOUT) :: PAR(*)
      DOUBLE PRECISION, EXTERNAL :: GETP
      INTEGER NDX, NTST, NCOL, J
      DOUBLE PRECISION, ALLOCATABLE :: DTM(:)

      NDX = NINT(GETP('NDX', 0, U))
      NTST = NINT(GETP('NTST', 0, U))
      NCOL = NINT(GETP('NCOL', 0, U))
      ALLOCATE(DTM(NTST))
      DO J = 1, NTST
         DTM(J) = GETP('DTM', J, U)
      END DO
      CALL MEASURES(U, NDX, NTST, NCOL, DTM, PAR)
      DEALLOCATE(DTM)
      END SUBROUTINE PVLS

      SUBROUTINE BCND
      END SUBROUTINE BCND

      SUBROUTINE ICND
      END SUBROUTINE ICND

      SUBROUTINE FOPT
      END SUBROUTINE FOPT
