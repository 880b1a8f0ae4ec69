"""Tools of experiments that did not ship: what ships never imports them.

`occluder_candidates` scores averages of occluder nets from their members' maps before any is
built; `two_thresholds` a decision with two thresholds; `stack_nets` (with `stacker_net`) a learned
second stage in place of the averaged occluder's mean. The rule and outcome of each experiment are
in lab/decisions/.
"""
