// wirebench: see /work/shared/bench/CONTRACT.md — implemented below.
print("wirebench: not built yet")
