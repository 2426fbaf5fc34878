"""Frozen dataclasses that key memos: their hash computed once per object.

A frozen dataclass's generated `__hash__` hashes every field on every call; `Param` (nested
properties) and the normalization `Context` are part of every normalization memo key, so
scoring re-hashed them tens of thousands of times per batch.
"""


def hash_once(cls):
    """Class decorator (after @dataclass(frozen=True)): the generated hash, remembered on the
    object. The remembered hash is not pickled: string hashes differ between processes."""
    computed = cls.__hash__

    def __hash__(self):
        found = self.__dict__.get("_hash")
        if found is None:
            found = computed(self)
            object.__setattr__(self, "_hash", found)
        return found

    def __getstate__(self):
        state = dict(self.__dict__)
        state.pop("_hash", None)
        return state

    cls.__hash__, cls.__getstate__ = __hash__, __getstate__
    return cls
