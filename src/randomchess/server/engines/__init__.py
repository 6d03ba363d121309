"""The engine wing: the engine service (a process pool or a saq queue), its worker, the
analysis and review jobs, and the analysis routes."""
