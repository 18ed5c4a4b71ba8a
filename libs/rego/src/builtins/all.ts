// Side-effect module: registers every built-in group.
export {};
