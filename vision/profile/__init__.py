"""The household's own dice: what the reader learns from the rolls the players confirmed.

The profile stage keeps the confirmed examples of a household's dice (their crops, faces
and descriptors), fits the classifier's heads to them, and weighs each face the reader
reads by how it looks beside them; teaching labels a frame's dice by the faces the
players confirmed.
"""
