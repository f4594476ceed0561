"""The game model, no pygame: descriptors, the registry, rules, values, seats, levels."""
